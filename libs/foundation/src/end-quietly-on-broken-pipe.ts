/**
 * A command's stdout whose reader went away (`pfsense-mcp admin audit export … | head`): the next write fails
 * with EPIPE, emitted as an 'error' event, and unhandled Node prints a stack trace and exits 1. Nobody reads the
 * output any more, so by default the process ends at once and quietly, with the exit code it had set (0 if
 * none) — what a shell expects of a program stopped by SIGPIPE. A program that must finish its work first (the
 * lab runner, mid-scenario) passes `onBrokenPipe` instead and stops writing. Any other stream error is rethrown.
 */
export function endQuietlyOnBrokenPipe(
  stream: NodeJS.WritableStream,
  onBrokenPipe: (exitCode: number) => void = (exitCode) => process.exit(exitCode),
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    onBrokenPipe(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}
