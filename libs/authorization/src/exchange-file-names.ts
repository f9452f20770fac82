// The file names of the exchange folder (docs/DESIGN.md §6), shared by the server (which writes requests/ and reads
// answers/) and the signer's `approve` (which reads requests/ and writes answers/): one owner for both sides.

/** `auth-<8 hex>.json` (authorization request), `conf-<8 hex>.json` (confirmation) or `roll-<8 hex>.json` (rollback). */
const REQUEST = /^(auth|conf|roll)-([0-9a-f]{8})\.json$/;
const ANSWER = /^((?:auth|conf|roll)-[0-9a-f]{8})\.signed\.json$/;

/** The two folders of an exchange folder. */
export const EXCHANGE_REQUESTS_FOLDER = 'requests';
export const EXCHANGE_ANSWERS_FOLDER = 'answers';

/** Whether `name` is an exchange request name. */
export function isExchangeRequestName(name: string): boolean {
  return REQUEST.test(name);
}

/** The exchange request name of a kind ('auth' | 'conf' | 'roll') and 8 hex. */
export function exchangeRequestFileName(prefix: 'auth' | 'conf' | 'roll', hex8: string): string {
  const name = `${prefix}-${hex8}.json`;
  if (!REQUEST.test(name)) throw new TypeError('exchangeRequestFileName: 8 lowercase hex expected');
  return name;
}

/** The answer's name for an exchange request name: `auth-3f9c1a2b.json` → `auth-3f9c1a2b.signed.json`. */
export function exchangeAnswerName(requestName: string): string {
  if (!REQUEST.test(requestName)) throw new TypeError('exchangeAnswerName: not an exchange request name');
  return `${requestName.slice(0, -'.json'.length)}.signed.json`;
}

/** The exchange request name an answer name answers, or null for any other name. */
export function requestNameOfAnswer(answerName: string): string | null {
  const m = ANSWER.exec(answerName);
  return m === null ? null : `${m[1] as string}.json`;
}
