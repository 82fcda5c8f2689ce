/**
 * What both recovery requests answer, whether or not an account matches (spec section 8): the
 * neutral text saying a mail follows within minutes if the details match, and to check spam.
 */
export type NeutralAnswer = { message?: string };
