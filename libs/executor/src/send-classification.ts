import type { EffectKnowledge } from './effect-knowledge.js';

/**
 * The classification of one send: the effect knowledge plus a sanitized, value-free outcome class
 * (`[A-Z][A-Z0-9_]*`) that the store writes into the audit row.
 */
export interface SendClassification {
  readonly knowledge: EffectKnowledge;
  readonly outcomeClass: string;
}

export function classified(knowledge: EffectKnowledge, outcomeClass: string): SendClassification {
  return Object.freeze({ knowledge, outcomeClass });
}
