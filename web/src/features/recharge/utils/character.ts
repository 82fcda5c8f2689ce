import type { UseQueryResult } from '@tanstack/react-query';

import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { Character } from '@/types/api-schema';

import { serverMessage } from './failure';

/**
 * What the character check says about the chosen server: nothing yet (no server chosen),
 * checking, the character's name, none there (a 404 with the game's message, or a 422 on
 * zoneId: the order would be refused, so it cannot be sent), or not known (the game did not
 * answer in time, or no answer came: the order may still go, the server decides).
 */
export type CharacterState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'found'; name: string }
  | { kind: 'missing'; message: string }
  | { kind: 'unchecked'; message: string };

export function characterState(zoneId: number, query: UseQueryResult<Character, unknown>): CharacterState {
  if (zoneId <= 0) return { kind: 'idle' };
  if (query.isPending) return { kind: 'checking' };
  if (query.isSuccess) return { kind: 'found', name: query.data.name };
  const error = toApiError(query.error);
  if (error.status === 404) return { kind: 'missing', message: error.message };
  if (error.status === 422) return { kind: 'missing', message: error.fieldError('zoneId') ?? error.message };
  const message = error.status === 503 ? serverMessage(error.data) : null;
  return { kind: 'unchecked', message: message ?? m['recharge.character.unchecked']() };
}
