/**
 * Unambiguous concatenation: each part is written as an 8-byte big-endian length followed by its bytes
 * (strings as UTF-8). Two different part lists never give the same bytes, so no delimiter can be forged
 * (the "length-prefixed framing from day one" rule of the protected-artifact spec). Reuse it for AEAD
 * associated data and any other multi-part MAC/hash input.
 */
export function frame(parts: readonly (Uint8Array | string)[]): Uint8Array {
  if (!Array.isArray(parts)) throw new TypeError('frame: "parts" must be an array');
  const encoded = parts.map((p, i) => {
    if (typeof p === 'string') return Buffer.from(p, 'utf8');
    if (p instanceof Uint8Array) return p;
    throw new TypeError(`frame: "parts[${i}]" must be a string or Uint8Array`);
  });
  const total = encoded.reduce((n, p) => n + 8 + p.length, 0);
  const out = Buffer.alloc(total);
  let off = 0;
  for (const p of encoded) {
    out.writeBigUInt64BE(BigInt(p.length), off);
    off += 8;
    out.set(p, off);
    off += p.length;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
