import { setFlagsFromString } from 'node:v8';

/**
 * Asks V8 to favour memory over speed for the rest of this process (`--optimize-for-size`: a more conservative
 * heap growth and young generation). A server serving large reads otherwise lets dead reply strings pile up in a
 * heap that grows to several times its live size before a full collection: the 10,000-row bench peaks near 140 MiB
 * of RSS with it off and under 100 MiB with it on, for about a quarter more CPU on the largest reads and nothing
 * measurable on small ones (docs/DESIGN.md §8). The flag is one V8 reads as it works, not only at start, so
 * setting it here takes effect; a process that cannot (no such flag) simply keeps V8's defaults.
 */
export function favourMemoryOverSpeed(): void {
  setFlagsFromString('--optimize-for-size');
}
