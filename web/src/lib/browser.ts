/**
 * Full page navigations, in one object so tests can observe them (jsdom cannot navigate).
 */
export const browser = {
  assign(url: string) {
    window.location.assign(url);
  },
  /** A page load that takes the place of the current entry in the history, as a redirect does. */
  replace(url: string) {
    window.location.replace(url);
  },
  reload() {
    window.location.reload();
  },
};
