import { describe, expect, it } from 'vitest';

import { fileNameFromDisposition } from '../utils/save-file';

describe('fileNameFromDisposition', () => {
  it("reads the gateway's quoted name", () => {
    expect(fileNameFromDisposition('attachment; filename="kid-du-lieu-ca-nhan-player01-20261127.json"')).toBe(
      'kid-du-lieu-ca-nhan-player01-20261127.json',
    );
  });

  it('prefers the encoded name, and reads an unquoted one', () => {
    const header = "attachment; filename=\"du-lieu.json\"; filename*=UTF-8''d%E1%BB%AF-li%E1%BB%87u.json";
    expect(fileNameFromDisposition(header)).toBe('dữ-liệu.json');
    expect(fileNameFromDisposition('attachment; filename=data.json; size=10')).toBe('data.json');
  });

  it('is null without a name', () => {
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition('attachment; filename=""')).toBeNull();
    expect(fileNameFromDisposition(undefined)).toBeNull();
  });
});
