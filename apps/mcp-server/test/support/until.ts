// Waiting for an event the test can only observe by polling (a file appearing, a counter moving, a process gone).

/** Waits until `condition` holds (polled every 20 ms), failing after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
