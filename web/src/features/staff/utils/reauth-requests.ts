import { useEffect, useSyncExternalStore } from 'react';

/** A re-authentication the console is waiting for: what the server said, and how it ends. */
type Pending = {
  message: string;
  promise: Promise<boolean>;
  resolve: (reauthenticated: boolean) => void;
};

let pending: Pending | null = null;
let hosts = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/**
 * Asks the member for their password or app code (the ReauthDialog of the console's layout).
 * Resolves true once the server took it, false when the member closed the dialog, or at once
 * when no dialog is there to ask (no console layout mounted, e.g. on the sign-in page). Calls
 * refused at the same time share one dialog.
 */
export function requestReauthentication(message: string): Promise<boolean> {
  if (hosts === 0) return Promise.resolve(false);
  if (!pending) {
    let resolve: (reauthenticated: boolean) => void = () => undefined;
    const promise = new Promise<boolean>((settle) => (resolve = settle));
    pending = { message, promise, resolve };
    emit();
  }
  return pending.promise;
}

/** Ends the re-authentication being asked for: true once the server took the secret. */
export function settleReauthentication(reauthenticated: boolean) {
  const settled = pending;
  pending = null;
  emit();
  settled?.resolve(reauthenticated);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * For the dialog: the server's message while a re-authentication is asked for, else null. The
 * component using it is what asks, so requests wait for an answer only while it is mounted.
 */
export function useReauthRequest(): string | null {
  useEffect(() => {
    hosts += 1;
    return () => {
      hosts -= 1;
      if (hosts === 0) settleReauthentication(false);
    };
  }, []);
  return useSyncExternalStore(subscribe, () => pending?.message ?? null);
}
