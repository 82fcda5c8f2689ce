import './styles.css';

/**
 * The entry: it imports the app in steps, each evaluated in a task of its own, so that the
 * browser paints the static shell of index.html first and stays responsive in between, instead
 * of evaluating all of the app's code and rendering in a few long tasks. index.html preloads every step's code (`preloadStartup` in vite.config.ts), so the
 * steps cost no extra round trips.
 */
const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

/** The next task, after the browser has had the chance to paint (a hidden tab paints no frame). */
const nextTask = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });

async function main(container: HTMLElement) {
  await nextTask();
  // The router, the query client and the HTTP client; starts every load the page needs.
  const { startApp } = await import('./app/start');
  const { router, queryClient, ready } = startApp();
  await nextTask();
  const [{ renderApp }] = await Promise.all([import('./app/render'), ready]);
  renderApp(container, router, queryClient);
}

void main(root);
