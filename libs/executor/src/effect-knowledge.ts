/**
 * What the executor knows about the effect of its one send (docs/DESIGN.md §4 step 8). Only the executor
 * decides this, from what actually happened on the wire; an adapter only says whether a received response
 * looks like its own success.
 */
export const EffectKnowledge = Object.freeze({
  /** Nothing was written: refused before the network, or a transport error with requestWritten: false. */
  PROVEN_NONE: 'PROVEN_NONE',
  /** pfSense answered 4xx with a pfrest error envelope: it rejected the request. */
  VERIFIED_FAILURE: 'VERIFIED_FAILURE',
  /** HTTP 200 with a success envelope that the adapter's parseResponse accepted. */
  VERIFIED_SUCCESS: 'VERIFIED_SUCCESS',
  /** Anything else: the request may or may not have been applied. Never retried. */
  AMBIGUOUS: 'AMBIGUOUS',
} as const);

export type EffectKnowledge = (typeof EffectKnowledge)[keyof typeof EffectKnowledge];

export const EFFECT_KNOWLEDGE_VALUES: readonly EffectKnowledge[] = Object.freeze(Object.values(EffectKnowledge));
