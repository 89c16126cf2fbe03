import type { StoragePort } from '../storage-port.ts';

/** Thrown where a simulated tab dies. */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

type Method = keyof StoragePort;

/**
 * A tab's view of shared storage that can die: once `crashWhen` matches a
 * call, that call and every later one through this view throw, exactly as if
 * the tab had been closed at that instant. Other tabs use the inner storage.
 */
export function crashableStorage(
  inner: StoragePort,
  crashWhen: (method: Method, args: unknown[]) => boolean,
): StoragePort & { readonly dead: boolean } {
  let dead = false;
  const view = {} as StoragePort & { dead: boolean };
  for (const method of Object.getOwnPropertyNames(Object.getPrototypeOf(inner)) as Method[]) {
    if ((method as string) === 'constructor') continue;
    const original = inner[method] as (...args: unknown[]) => Promise<unknown>;
    Object.assign(view, {
      [method]: async (...args: unknown[]) => {
        if (!dead && crashWhen(method, args)) dead = true;
        if (dead) throw new SimulatedCrash(`tab died at ${method}`);
        return original.apply(inner, args);
      },
    });
  }
  Object.defineProperty(view, 'dead', { get: () => dead });
  return view;
}
