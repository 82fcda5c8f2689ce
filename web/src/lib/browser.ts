/**
 * Full page navigations, in one object so tests can observe them (jsdom cannot navigate).
 */
export const browser = {
  assign(url: string) {
    window.location.assign(url);
  },
  reload() {
    window.location.reload();
  },
};

type NetworkInformation = { effectiveType?: string; saveData?: boolean };

/** True on a 2G-class connection, where retries back off for longer. */
export function isSlowConnection(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return !!connection && (connection.saveData === true || ['slow-2g', '2g'].includes(connection.effectiveType ?? ''));
}
