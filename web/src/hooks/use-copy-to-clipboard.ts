import { useCallback, useEffect, useRef, useState } from 'react';

import { COPIED_HINT_MS } from '@/config/constants';

/** Where the Clipboard API is missing (a page served over plain http), a selected textarea is copied. */
function copyWithSelection(text: string) {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('The browser refused to copy');
  } finally {
    area.remove();
  }
}

async function writeText(text: string) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Refused (no permission, or the page lost focus): the selection may still work.
    }
  }
  copyWithSelection(text);
}

/**
 * Copies text to the clipboard. `copied` turns true once a copy succeeded and back to false
 * `timeout` ms after the last one (spec section 9: the 'copied' hint resets after 3 s).
 */
export function useCopyToClipboard(timeout: number = COPIED_HINT_MS) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = useCallback(
    async (text: string): Promise<boolean> => {
      try {
        await writeText(text);
      } catch {
        return false;
      }
      window.clearTimeout(timer.current);
      setCopied(true);
      timer.current = window.setTimeout(() => setCopied(false), timeout);
      return true;
    },
    [timeout],
  );

  return { copied, copy };
}
