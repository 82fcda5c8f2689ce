import { CreditCard, Gamepad2, Gift, History, ShieldCheck, UserRound, type LucideIcon } from 'lucide-react';

import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

export type NavItem = {
  key: 'profile' | 'security' | 'payment' | 'recharge' | 'giftcode' | 'transactions';
  label: () => string;
  to: string;
  /** Only the exact path is this section (for /, which prefixes everything). */
  end?: boolean;
  icon: LucideIcon;
};

/** The signed-in sections, in the order the side navigation lists them. */
export const navItems: readonly NavItem[] = [
  { key: 'profile', label: m['nav.profile'], to: paths.home, end: true, icon: UserRound },
  { key: 'security', label: m['nav.security'], to: paths.security, icon: ShieldCheck },
  { key: 'payment', label: m['nav.payment'], to: paths.payment, icon: CreditCard },
  { key: 'recharge', label: m['nav.recharge'], to: paths.recharge, icon: Gamepad2 },
  { key: 'giftcode', label: m['nav.giftcode'], to: paths.giftcode, icon: Gift },
  { key: 'transactions', label: m['nav.transactions'], to: paths.transactions, icon: History },
];
