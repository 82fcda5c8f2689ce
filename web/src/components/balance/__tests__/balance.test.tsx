import { describe, expect, it } from 'vitest';

import { buildUser } from '@/testing/data';
import { renderApp, renderComponent, screen, within } from '@/testing/test-utils';

import { BalanceBanner } from '../balance-banner';
import { CreditBar } from '../credit-bar';

const topUpLink = () => screen.queryByRole('link', { name: 'Nạp thẻ' });

describe('balance banner', () => {
  it('shows the KP balance with thousands separators and no debt line without debt', async () => {
    renderComponent(<BalanceBanner />, { user: buildUser({ credit: 1234567, debtCredit: 0 }) });
    expect(await screen.findByText('Số dư: 1,234,567 KP')).toBeInTheDocument();
    expect(screen.queryByText(/^Nợ:/)).not.toBeInTheDocument();
  });

  it('shows the debt when there is some', async () => {
    renderComponent(<BalanceBanner />, { user: buildUser({ credit: 0, debtCredit: 15000 }) });
    expect(await screen.findByText('Nợ: 15,000 KP, sẽ được trừ tự động vào lần nạp tiếp theo.')).toBeInTheDocument();
  });

  it.each(['/', '/transactions', '/recharge/jxsj2', '/payments'])(
    'offers Nạp thẻ at %s when the balance is 0',
    async (url) => {
      renderComponent(<BalanceBanner />, { url, user: buildUser({ credit: 0 }) });
      await screen.findByText('Số dư: 0 KP');
      expect(topUpLink()).toHaveAttribute('href', '/payment');
    },
  );

  it.each(['/payment', '/payment/', '/payment/card', '/payment/bank-transfer'])(
    'does not offer Nạp thẻ under /payment (%s)',
    async (url) => {
      renderComponent(<BalanceBanner />, { url, user: buildUser({ credit: 0 }) });
      await screen.findByText('Số dư: 0 KP');
      expect(topUpLink()).not.toBeInTheDocument();
    },
  );

  it('does not offer Nạp thẻ while there is a balance', async () => {
    renderComponent(<BalanceBanner />, { url: '/', user: buildUser({ credit: 1 }) });
    await screen.findByText('Số dư: 1 KP');
    expect(topUpLink()).not.toBeInTheDocument();
  });

  it('stands under the top-up heading on /payment', async () => {
    renderApp('/payment/card', { user: buildUser({ credit: 250000, debtCredit: 5000 }) });
    const banner = await screen.findByTestId('balance-banner');
    expect(banner).toHaveTextContent('Số dư: 250,000 KP');
    expect(banner).toHaveTextContent('Nợ: 5,000 KP');
    expect(within(banner).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('credit bar', () => {
  it('shows the KP balance and a short debt line', async () => {
    renderComponent(<CreditBar />, { url: '/recharge', user: buildUser({ credit: 98765, debtCredit: 1000 }) });
    const bar = await screen.findByTestId('credit-bar');
    expect(within(bar).getByText('Số dư: 98,765 KP')).toBeInTheDocument();
    expect(within(bar).getByText('Nợ: 1,000 KP')).toBeInTheDocument();
    expect(within(bar).queryByRole('link')).not.toBeInTheDocument();
  });

  it('offers Nạp thẻ when the balance is 0', async () => {
    renderComponent(<CreditBar />, { url: '/recharge', user: buildUser({ credit: 0 }) });
    const bar = await screen.findByTestId('credit-bar');
    expect(within(bar).getByRole('link', { name: 'Nạp thẻ' })).toHaveAttribute('href', '/payment');
  });

  it('stands under the heading on /recharge and on a game', async () => {
    renderApp('/recharge/jxsj2', { user: buildUser({ credit: 42000 }) });
    expect(await screen.findByTestId('credit-bar')).toHaveTextContent('Số dư: 42,000 KP');
    expect(screen.getByRole('heading', { level: 1, name: 'Nạp game' })).toBeInTheDocument();
  });
});
