import { toApiError } from '@/lib/api-client';

/**
 * The game (product code) whose zone a code of in-game items needs: a 422 with errors.zoneId
 * and the body's `productCode` (no zone chosen, an unknown zone, or one where the player has no
 * character). Null for any other failure.
 */
export function zoneProductOf(error: unknown): string | null {
  const apiError = toApiError(error);
  if (apiError.status !== 422 || !apiError.fieldError('zoneId')) return null;
  const productCode: unknown =
    typeof apiError.data === 'object' && apiError.data !== null ? Reflect.get(apiError.data, 'productCode') : undefined;
  return typeof productCode === 'string' && productCode ? productCode : null;
}

/** Whether two typed codes are one code as the server reads them: case, spaces and dashes aside. */
export function sameCode(a: string, b: string): boolean {
  const normalise = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();
  return normalise(a) === normalise(b);
}
