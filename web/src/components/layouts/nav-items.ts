import { CreditCard, Gamepad2, Gift, History, ShieldCheck, UserRound, type LucideIcon } from 'lucide-react';

import { paths } from '@/config/paths';

export type NavItem = {
  key: 'profile' | 'security' | 'payment' | 'recharge' | 'giftcode' | 'transactions';
  to: string;
  /** Only the exact path is this section (for /, which prefixes everything). */
  end?: boolean;
  icon: LucideIcon;
};

/** The signed-in sections, in the order the side navigation lists them. */
export const navItems: readonly NavItem[] = [
  { key: 'profile', to: paths.home, end: true, icon: UserRound },
  { key: 'security', to: paths.security, icon: ShieldCheck },
  { key: 'payment', to: paths.payment, icon: CreditCard },
  { key: 'recharge', to: paths.recharge, icon: Gamepad2 },
  { key: 'giftcode', to: paths.giftcode, icon: Gift },
  { key: 'transactions', to: paths.transactions, icon: History },
];
