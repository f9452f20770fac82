import type { RateWindowsView } from './rate-windows-view.js';
import { assertOpen, nowOf } from '../store/store-state.js';
import type { StoreState } from '../store/store-state.js';

/** The rate windows in force now, from the authenticated rate row and the live contract rows (digests, never names). */
export function rateWindows(s: StoreState): RateWindowsView {
  assertOpen(s);
  return s.db.transaction(() => s.rate.view(nowOf(s)))();
}
