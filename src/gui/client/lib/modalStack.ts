/**
 * The open dialogs, innermost last: Escape closes the innermost one only (a confirm above a dialog is cancelled
 * first, the dialog stays). DOM-free: the browser entry forwards Escape key presses to `escape()`.
 */

/** One open dialog's close request (it may still ask about unsaved changes). */
export type CloseRequest = () => void;

/** The stack of open dialogs. */
export interface ModalStack {
  /** Registers an opened dialog; returns its handle for `remove`. */
  push(close: CloseRequest): number;
  /** Forgets a dialog that closed (any position: dialogs may close out of order). */
  remove(handle: number): void;
  /** Asks the innermost dialog to close; false when none is open (the key is then left alone). */
  escape(): boolean;
  /** How many dialogs are open. */
  readonly size: number;
}

/** A new, empty stack. */
export function createModalStack(): ModalStack {
  const open: Array<{ handle: number; close: CloseRequest }> = [];
  let next = 0;
  return {
    push(close) {
      next += 1;
      open.push({ handle: next, close });
      return next;
    },
    remove(handle) {
      const at = open.findIndex((m) => m.handle === handle);
      if (at >= 0) open.splice(at, 1);
    },
    escape() {
      const top = open[open.length - 1];
      if (top === undefined) return false;
      top.close();
      return true;
    },
    get size() {
      return open.length;
    },
  };
}
