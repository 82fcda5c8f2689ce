import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SocialChat } from '@/components/chat/social-chat';
import { MESSENGER_SDK_URL } from '@/components/chat/mount-messenger-chat';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

/** How often the widget's own chunk was imported in this file (its module is imported once). */
const chunk = vi.hoisted(() => ({ imports: 0 }));
vi.mock('@/components/chat/messenger-chat', async (importOriginal) => {
  chunk.imports += 1;
  return importOriginal();
});

const sdkScript = () => document.querySelector<HTMLScriptElement>('script#facebook-jssdk');
const chatPlaceholder = () => document.querySelector('.fb-customerchat');
/** Lets the page's load and idle callbacks and a dynamic import run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => {
  document.querySelectorAll('#fb-root, .fb-customerchat, script#facebook-jssdk').forEach((node) => node.remove());
  delete window.fbAsyncInit;
  delete window.FB;
});

// In this order: the first tests check that nothing is imported without a page id.
describe('social chat widget', () => {
  it('renders nothing and loads nothing without a page id', async () => {
    const { container } = render(<SocialChat pageId="" />);
    await settle();
    expect(container).toBeEmptyDOMElement();
    expect(chunk.imports).toBe(0);
    expect(sdkScript()).toBeNull();
    expect(chatPlaceholder()).toBeNull();
  });

  it('is not in the signed-in shell when no page id is configured', async () => {
    renderApp('/', { user: true });
    await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' });
    await settle();
    expect(chunk.imports).toBe(0);
    expect(sdkScript()).toBeNull();
  });

  it("loads its chunk once the page is idle, then Messenger's SDK for the page", async () => {
    render(<SocialChat pageId="123456789" />);
    // Not during the first render: only after load and an idle moment.
    expect(sdkScript()).toBeNull();

    await waitFor(() => expect(sdkScript()).not.toBeNull());
    expect(chunk.imports).toBe(1);
    const script = sdkScript()!;
    expect(script.src).toBe(MESSENGER_SDK_URL);
    expect(script.async).toBe(true);
    expect(document.getElementById('fb-root')).not.toBeNull();
    expect(chatPlaceholder()).toHaveAttribute('page_id', '123456789');
    expect(chatPlaceholder()).toHaveAttribute('attribution', 'biz_inbox');

    // When the SDK has loaded it initialises the plugin.
    const init = vi.fn();
    window.FB = { init, XFBML: { parse: vi.fn() } };
    window.fbAsyncInit?.();
    expect(init).toHaveBeenCalledWith({ xfbml: true, version: 'v18.0' });
  });

  it('adds the SDK once and takes its placeholder away when the shell goes', async () => {
    const first = render(<SocialChat pageId="123456789" />);
    await waitFor(() => expect(chatPlaceholder()).not.toBeNull());
    first.unmount();
    expect(chatPlaceholder()).toBeNull();

    const parse = vi.fn();
    window.FB = { init: vi.fn(), XFBML: { parse } };
    render(<SocialChat pageId="123456789" />);
    await waitFor(() => expect(chatPlaceholder()).not.toBeNull());
    expect(document.querySelectorAll('script#facebook-jssdk')).toHaveLength(1);
    expect(parse).toHaveBeenCalled();
  });
});
