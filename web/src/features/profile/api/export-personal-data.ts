import { useMutation } from '@tanstack/react-query';

import { api, dataOf, withTimeout } from '@/lib/api-client';

import { fileNameFromDisposition, saveFile } from '../utils/save-file';

/** The name the file gets should the answer not name it. */
export const PERSONAL_DATA_FILE_NAME = 'kid-du-lieu-ca-nhan.json';

/** Gathering every transaction of a long-standing player can outlast the client's 15 s. */
const EXPORT_TIMEOUT_MS = 60_000;

export type PersonalDataFile = { blob: Blob; fileName: string };

/**
 * GET /me/export: everything Kid holds about the player as one JSON attachment
 * (`kid-du-lieu-ca-nhan-<username>-<YYYYMMDD>.json`), kept byte for byte with the name the
 * server gives it.
 */
export async function exportPersonalData(): Promise<PersonalDataFile> {
  // A failure's JSON body is read as JSON whatever `parseAs` says, so the server's words show.
  const answer = await api.GET('/me/export', { parseAs: 'arrayBuffer', fetch: withTimeout(EXPORT_TIMEOUT_MS) });
  const fileName = fileNameFromDisposition(answer.response.headers.get('Content-Disposition')) ?? PERSONAL_DATA_FILE_NAME;
  return { blob: new Blob([dataOf(answer)], { type: 'application/json' }), fileName };
}

/** Downloads the file and hands it to the browser; nothing the app holds changes. */
export function useExportPersonalData() {
  return useMutation({
    mutationFn: exportPersonalData,
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
  });
}
