/**
 * Waits for a condition instead of a guessed time: polls `check` until it returns a value other
 * than undefined or false, and returns that value; fails after `timeoutMs`, naming `what`. The
 * timeout only bounds a wait that went wrong: tests never assert how long anything took.
 */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
  what = 'condition',
  intervalMs = 50,
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, false>;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
