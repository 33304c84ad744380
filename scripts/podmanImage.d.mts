/** Types of podmanImage.mjs (plain JS so the bench can run it without a build). */
export declare const BASE_IMAGE: string;
export declare const IMAGE: string;
export declare const PROXY_IMAGE: string;
export declare function removeImages(): Promise<void>;
export declare const PODMAN: readonly string[];
export declare const LIMITS: readonly string[];
/** A finished command. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}
export declare function run(cmd: string, args: readonly string[], timeoutMs?: number, env?: NodeJS.ProcessEnv): Promise<Ran>;
export declare function podman(args: readonly string[], timeoutMs?: number): Promise<Ran>;
export declare function startPodmanService(socket: string): Promise<import('node:child_process').ChildProcess>;
export declare function podmanProblem(): string | null;
export declare function packContext(scratch: string): Promise<string>;
export declare function contextListing(scratch: string, context: string): Promise<string[]>;
export declare function buildImage(tag: string, dockerfile: string, context: string, extra?: readonly string[]): Promise<number>;
export declare function buildImages(scratch: string): Promise<{ buildMs: number; context: string }>;
