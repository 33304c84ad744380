/**
 * The GUI server's view of the host boot: the page is served at once and polls `/api/boot`; the host boots
 * behind it. A boot failure (LOCK_HELD because a `serve` holds the village, VILLAGE_MISSING, CONFIG_PARSE, …)
 * is kept with its reason and shown on the boot overlay instead of killing the server.
 */
import { toWire, type ErrorPayload } from '../../core/errors.js';

/** Wire of `/api/boot`. */
export type BootStatus =
  | { state: 'booting' }
  | { state: 'ready' }
  | { state: 'failed'; error: ErrorPayload };

/** Holds the boot outcome of `T` (the booted host's GUI surface). */
export class BootGate<T> {
  private status: BootStatus = { state: 'booting' };
  private value: T | null = null;

  /** Starts the boot; never rejects (a failure becomes the `failed` status). */
  run(boot: () => Promise<T>): Promise<void> {
    this.status = { state: 'booting' };
    return boot().then(
      (value) => {
        this.value = value;
        this.status = { state: 'ready' };
      },
      (error: unknown) => {
        this.status = { state: 'failed', error: toWire(error) };
      },
    );
  }

  /** The current status (the `/api/boot` body). */
  get current(): BootStatus {
    return this.status;
  }

  /** The booted value, or null before ready / after a failure. */
  get ready(): T | null {
    return this.value;
  }
}
