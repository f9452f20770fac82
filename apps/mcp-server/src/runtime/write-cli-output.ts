/**
 * Human-readable output of --help, --version and --check-config. It goes to stderr like everything else
 * the program prints: stdout is reserved for MCP protocol frames, in every mode.
 */
export function writeCliOutput(text: string): void {
  try {
    process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  } catch {
    // stderr closed: nothing else to do.
  }
}
