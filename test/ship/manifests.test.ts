/**
 * deploy/k8s/*.yaml against the Kubernetes API schemas (kubernetes-models' validators; there is no cluster here),
 * plus the promises the manifests make: one replica, a ReadWriteOnce volume, the bake seeded by an init container,
 * probes on `status`, a grace above serve's 30 s, only the proxy reachable. And the compose files' shape.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import { Pod, Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/support/cliProcess.js';
import { CLOSE_GRACE_MS } from '../../src/host/closeHost.js';

const K8S = join(ROOT, 'deploy/k8s');
type Doc = { kind: string; metadata: { name: string } } & Record<string, unknown>;

/** Every document of every manifest file. */
function manifests(): Doc[] {
  return readdirSync(K8S)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(K8S, f), 'utf8')).map((d) => {
        if (d.errors.length > 0) throw new Error(`${f}: ${d.errors[0]?.message}`);
        return d.toJS() as Doc;
      }),
    );
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = { StatefulSet, Service, Secret, NetworkPolicy };

/** Validates one document against its kind's schema (throws with the schema's complaint). */
export function validateManifest(doc: Doc): void {
  const Model = MODELS[doc.kind];
  if (Model === undefined) throw new Error(`no schema model for kind ${doc.kind}`);
  new Model(doc as never).validate();
}

type Container = { name: string; image: string; command?: string[]; ports?: Array<{ containerPort: number; name?: string }>; envFrom?: Array<{ secretRef?: { name: string } }>; livenessProbe?: { exec?: { command: string[] } }; readinessProbe?: { exec?: { command: string[] } }; startupProbe?: { exec?: { command: string[] } }; resources?: { requests?: Record<string, string> } };

describe('Kubernetes manifests', () => {
  const docs = manifests();
  const byKind = (kind: string): Doc[] => docs.filter((d) => d.kind === kind);

  it('every document validates against the Kubernetes schema of its kind', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual(['NetworkPolicy', 'Secret', 'Secret', 'Secret', 'Service', 'Service', 'StatefulSet']);
    for (const doc of docs) expect(() => validateManifest(doc), `${doc.kind}/${doc.metadata.name}`).not.toThrow();
  });

  it('the validator really checks: a wrong type, a bad enum value and a missing required field are refused', () => {
    const base = byKind('StatefulSet')[0]!;
    const broken = (edit: (spec: Record<string, unknown>) => void): Doc => {
      const copy = structuredClone(base) as Doc & { spec: Record<string, unknown> };
      edit(copy.spec);
      return copy;
    };
    expect(() => validateManifest(broken((s) => (s.replicas = 'one')))).toThrow();
    expect(() => validateManifest(broken((s) => (s.podManagementPolicy = 'Sequential')))).toThrow();
    expect(() => validateManifest(broken((s) => delete s.selector))).toThrow();
    // These schemas accept unknown keys; the policy tests below read the keys that matter by exact path, so a
    // misspelt key there fails them instead.
  });

  it('one village per pod: one replica, a ReadWriteOnce volume, the bake seeded first, a grace above serve\'s close grace', () => {
    const sts = byKind('StatefulSet')[0] as unknown as { spec: { replicas: number; volumeClaimTemplates: Array<{ spec: { accessModes: string[] } }>; template: { spec: { terminationGracePeriodSeconds: number; initContainers: Container[]; containers: Container[] } } } };
    expect(sts.spec.replicas).toBe(1);
    expect(sts.spec.volumeClaimTemplates.map((v) => v.spec.accessModes)).toEqual([['ReadWriteOnce']]);
    const pod = sts.spec.template.spec;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(CLOSE_GRACE_MS / 1000);
    expect(pod.initContainers.map((c) => c.command?.join(' '))).toEqual([expect.stringContaining('fuseforks-cli seed --from /opt/fuseforks-bake --data-dir /data &&')]);
    const village = pod.containers.find((c) => c.name === 'village')!;
    expect(village.image).toBe(pod.initContainers[0]!.image);
    for (const probe of [village.livenessProbe, village.readinessProbe, village.startupProbe]) expect(probe?.exec?.command.slice(0, 2)).toEqual(['fuseforks-cli', 'status']);
    expect(village.readinessProbe?.exec?.command).toContain('--ready');
    expect(village.envFrom).toEqual([{ secretRef: { name: 'village-a-keys' } }]);
    expect(village.ports ?? []).toEqual([]);
    expect(village.resources?.requests?.memory).toMatch(/^\d+Mi$/);
  });

  it('no subPath trap, every secret volume optional: the door file is copied from a directory mount by the seed', () => {
    const sts = byKind('StatefulSet')[0] as unknown as { spec: { template: { spec: { initContainers: Array<Container & { volumeMounts: Array<{ name: string; mountPath: string; subPath?: string }> }>; containers: Array<Container & { volumeMounts: Array<{ subPath?: string }> }>; volumes: Array<{ name: string; secret?: { optional?: boolean } }> } } } };
    const pod = sts.spec.template.spec;
    expect([...pod.initContainers, ...pod.containers].flatMap((c) => c.volumeMounts).filter((m) => m.subPath !== undefined)).toEqual([]);
    const secrets = pod.volumes.filter((v) => v.secret !== undefined);
    expect(secrets.map((v) => [v.name, v.secret?.optional])).toEqual([['door', true], ['tls', true]]);
    expect(pod.initContainers[0]!.volumeMounts).toContainEqual({ name: 'door', mountPath: '/door', readOnly: true });
    expect(pod.initContainers[0]!.command?.join(' ')).toContain('install -m 0600 /door/mcp_server.json /data/mcp_server.json');
  });

  it('only the proxy is reachable: Services and the NetworkPolicy name its port and nothing else', () => {
    const sts = byKind('StatefulSet')[0] as unknown as { spec: { template: { spec: { containers: Container[] } } } };
    const ports = sts.spec.template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => ({ container: c.name, ...p })));
    expect(ports).toEqual([{ container: 'door-proxy', name: 'https', containerPort: 8443, protocol: 'TCP' }]);
    for (const svc of byKind('Service') as unknown as Array<{ spec: { ports: Array<{ targetPort: string }> } }>) {
      expect(svc.spec.ports.map((p) => p.targetPort)).toEqual(['https']);
    }
    const policy = byKind('NetworkPolicy')[0] as unknown as { spec: { policyTypes: string[]; ingress: Array<{ ports: Array<{ port: number }> }> } };
    expect(policy.spec.policyTypes).toContain('Ingress');
    expect(policy.spec.ingress.flatMap((r) => r.ports.map((p) => p.port))).toEqual([8443]);
  });
});

describe('deploy/pod.yaml (podman kube play)', () => {
  const pod = parse(readFileSync(join(ROOT, 'deploy/pod.yaml'), 'utf8')) as Doc & { spec: { restartPolicy: string; terminationGracePeriodSeconds: number; initContainers: Container[]; containers: Container[] } };

  it('validates as a Pod; restarts on failure only (never re-running a finished seed); a status liveness probe', () => {
    expect(() => new Pod(pod as never).validate()).not.toThrow();
    expect(pod.spec.restartPolicy).toBe('OnFailure');
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThan(CLOSE_GRACE_MS / 1000);
    expect(pod.spec.initContainers.map((c) => c.command?.slice(2, 4))).toEqual([['fuseforks-cli', 'seed']]);
    const village = pod.spec.containers.find((c) => c.name === 'village')!;
    expect(village.image).toBe(pod.spec.initContainers[0]!.image);
    expect(village.livenessProbe?.exec?.command.slice(0, 2)).toEqual(['fuseforks-cli', 'status']);
    expect(JSON.stringify(pod)).not.toContain('subPath');
  });
});

describe('compose files', () => {
  type Service = { image: string; entrypoint?: string[]; network_mode?: string; ports?: string[]; volumes?: string[]; depends_on?: Record<string, { condition: string }> | string[]; stop_grace_period?: string };
  const load = (f: string): { services: Record<string, Service> } => parse(readFileSync(join(ROOT, 'deploy', f), 'utf8')) as { services: Record<string, Service> };

  it('compose.yaml: seed runs first and only then serve, on one volume, publishing nothing', () => {
    const { services } = load('compose.yaml');
    expect(Object.keys(services).sort()).toEqual(['seed', 'village']);
    expect(services.seed!.entrypoint?.slice(2, 4)).toEqual(['fuseforks-cli', 'seed']);
    expect(services.village!.depends_on).toEqual({ seed: { condition: 'service_completed_successfully' } });
    expect(services.village!.entrypoint).toBeUndefined(); // the image's: serve --data-dir /data --secrets env --start batch
    expect(services.village!.ports).toBeUndefined();
    expect(Number.parseInt(services.village!.stop_grace_period ?? '0', 10)).toBeGreaterThan(CLOSE_GRACE_MS / 1000);
  });

  it('compose.door.yaml: the proxy shares the village\'s network namespace; only its port is published', () => {
    const { services } = load('compose.door.yaml');
    expect(services['door-proxy']!.network_mode).toBe('service:village');
    expect(services.village!.ports).toEqual(['${FUSEFORKS_PROXY_PUBLISH:-8443}:8443']); // the container side is always the proxy's
    expect(services.village!.volumes?.some((v) => v.endsWith(':/data/mcp_server.json:ro'))).toBe(true);
  });
});
