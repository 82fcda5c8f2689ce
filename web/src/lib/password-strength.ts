/**
 * Password strength (spec section 5): four character classes and three levels.
 *
 * - medium: at least 2 classes, one of them a digit
 * - strong: at least 3 classes, one of them a symbol
 * - very strong: all 4 classes
 *
 * The levels are read as a ladder: a password that meets a higher level also meets the lower
 * ones (`Abc!defg` is strong, so it is accepted where medium is asked for, digit or not).
 */

import { m } from '@/paraglide/messages';

export type CharacterClass = 'lowercase' | 'uppercase' | 'digit' | 'symbol';

export const PASSWORD_LEVELS = ['medium', 'strong', 'veryStrong'] as const;
export type PasswordLevel = (typeof PASSWORD_LEVELS)[number];
export type PasswordStrength = 'weak' | PasswordLevel;

const RANK: Record<PasswordStrength, number> = { weak: 0, medium: 1, strong: 2, veryStrong: 3 };

/** The "choose a stronger password" message for each required level. */
export const STRONGER_PASSWORD_MESSAGE: Record<PasswordLevel, string> = {
  medium: m['password.stronger.medium'](),
  strong: m['password.stronger.strong'](),
  veryStrong: m['password.stronger.veryStrong'](),
};

export function characterClasses(password: string): Set<CharacterClass> {
  const classes = new Set<CharacterClass>();
  for (const char of password) {
    if (/\p{Ll}/u.test(char)) classes.add('lowercase');
    else if (/\p{Lu}/u.test(char)) classes.add('uppercase');
    else if (/\p{Nd}/u.test(char)) classes.add('digit');
    // Anything that is neither a cased letter nor a digit is a symbol (spaces too).
    else if (!/\p{L}/u.test(char)) classes.add('symbol');
  }
  return classes;
}

export function passwordStrength(password: string): PasswordStrength {
  const classes = characterClasses(password);
  if (classes.size === 4) return 'veryStrong';
  if (classes.size >= 3 && classes.has('symbol')) return 'strong';
  if (classes.size >= 2 && classes.has('digit')) return 'medium';
  return 'weak';
}

export function meetsPasswordLevel(password: string, level: PasswordLevel): boolean {
  return RANK[passwordStrength(password)] >= RANK[level];
}

/** The message asking for a stronger password, or null when it is strong enough. */
export function passwordStrengthError(password: string, level: PasswordLevel): string | null {
  return meetsPasswordLevel(password, level) ? null : STRONGER_PASSWORD_MESSAGE[level];
}
