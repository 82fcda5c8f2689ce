import { useMutation } from '@tanstack/react-query';

import { api, ApiError, toApiError, type ApiErrorBody } from '@/lib/api-client';

import { fileNameFromDisposition, saveFile } from '../utils/save-file';

/** The name the file gets should the answer not name it. */
export const PERSONAL_DATA_FILE_NAME = 'kid-du-lieu-ca-nhan.json';

/** Gathering every transaction of a long-standing player can outlast the client's 15 s. */
const EXPORT_TIMEOUT_MS = 60_000;

export type PersonalDataFile = { blob: Blob; fileName: string };

const isArrayBuffer = (data: unknown): data is ArrayBuffer =>
  Object.prototype.toString.call(data) === '[object ArrayBuffer]';

/** Asked for as bytes, an error's JSON body arrives as bytes too: read it, so the server's words show. */
function withErrorBody(error: unknown): ApiError {
  const apiError = toApiError(error);
  if (!isArrayBuffer(apiError.data)) return apiError;
  try {
    const body = JSON.parse(new TextDecoder().decode(apiError.data)) as ApiErrorBody;
    return new ApiError(body.message ?? apiError.message, {
      status: apiError.status,
      errors: body.errors,
      data: body,
      code: apiError.code,
      retryAfterSeconds: apiError.retryAfterSeconds,
    });
  } catch {
    return apiError;
  }
}

/**
 * GET /me/export: everything Kid holds about the player as one JSON attachment
 * (`kid-du-lieu-ca-nhan-<username>-<YYYYMMDD>.json`), kept byte for byte with the name the
 * server gives it.
 */
export async function exportPersonalData(): Promise<PersonalDataFile> {
  try {
    const response = await api.get<ArrayBuffer>('/me/export', {
      responseType: 'arraybuffer',
      timeout: EXPORT_TIMEOUT_MS,
    });
    const fileName = fileNameFromDisposition(response.headers['content-disposition']) ?? PERSONAL_DATA_FILE_NAME;
    return { blob: new Blob([response.data], { type: 'application/json' }), fileName };
  } catch (error) {
    throw withErrorBody(error);
  }
}

/** Downloads the file and hands it to the browser; nothing the app holds changes. */
export function useExportPersonalData() {
  return useMutation({
    mutationFn: exportPersonalData,
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
  });
}
