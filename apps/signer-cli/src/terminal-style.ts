/** ANSI styling, or plain text when colour is off (not a TTY, NO_COLOR set, --json or --no-color). */
export interface Style {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly green: (s: string) => string;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

export function createStyle(enabled: boolean): Style {
  const wrap = (open: string, close: string) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return Object.freeze({
    bold: wrap('1', '22'),
    dim: wrap('2', '22'),
    green: wrap('32', '39'),
    red: wrap('31', '39'),
    yellow: wrap('33', '39'),
    cyan: wrap('36', '39'),
  });
}
