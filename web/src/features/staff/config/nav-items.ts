import {
  ArrowLeftRight,
  Coins,
  LayoutDashboard,
  LifeBuoy,
  ScrollText,
  UserSearch,
  UsersRound,
  type LucideIcon,
} from 'lucide-react';

import { m } from '@/paraglide/messages';

import { STAFF_ROLES, type StaffRole } from '../utils/roles';

import { staffPaths } from './paths';

/** The sections besides the home page; `STAFF_ABILITY_TEXTS` says what each is for. */
export type StaffSectionKey = 'members' | 'players' | 'tickets' | 'transfers' | 'adjustments' | 'audit';

export type StaffNavKey = 'home' | StaffSectionKey;

/** Each section's name, in the navigation and on the home page. */
export const STAFF_NAV_TEXTS = {
  home: m['staff.nav.home'],
  members: m['staff.nav.members'],
  players: m['staff.nav.players'],
  tickets: m['staff.nav.tickets'],
  transfers: m['staff.nav.transfers'],
  adjustments: m['staff.nav.adjustments'],
  audit: m['staff.nav.audit'],
} satisfies Record<StaffNavKey, () => string>;

/** What each section besides the home page is for, as the home page lists it. */
export const STAFF_ABILITY_TEXTS = {
  members: m['staff.abilities.members'],
  players: m['staff.abilities.players'],
  tickets: m['staff.abilities.tickets'],
  transfers: m['staff.abilities.transfers'],
  adjustments: m['staff.abilities.adjustments'],
  audit: m['staff.abilities.audit'],
} satisfies Record<StaffSectionKey, () => string>;

export type StaffNavItem = {
  /** `STAFF_NAV_TEXTS` names it. */
  key: StaffNavKey;
  to: string;
  /** Only the exact path is this section (for the console's home, which prefixes every page). */
  end?: boolean;
  icon: LucideIcon;
  /** The roles it is shown to. The server still checks every call, whoever sees the link. */
  roles: readonly StaffRole[];
};

/**
 * The console's sections, in the order the navigation lists them: the one place a new page is
 * added (with its route in components/staff-console.tsx and its two texts above). The home page lists
 * the others a role sees as what that role can do.
 */
export const staffNavItems: readonly StaffNavItem[] = [
  { key: 'home', to: staffPaths.home, end: true, icon: LayoutDashboard, roles: STAFF_ROLES },
  { key: 'members', to: staffPaths.members, icon: UsersRound, roles: ['admin'] },
  { key: 'players', to: staffPaths.players, icon: UserSearch, roles: STAFF_ROLES },
  { key: 'tickets', to: staffPaths.tickets, icon: LifeBuoy, roles: STAFF_ROLES },
  { key: 'transfers', to: staffPaths.transfers, icon: ArrowLeftRight, roles: STAFF_ROLES },
  { key: 'adjustments', to: staffPaths.adjustments, icon: Coins, roles: STAFF_ROLES },
  { key: 'audit', to: staffPaths.audit, icon: ScrollText, roles: STAFF_ROLES },
];

/** The sections shown to a member of `role`. */
export const navItemsFor = (role: string): StaffNavItem[] =>
  staffNavItems.filter((item) => (item.roles as readonly string[]).includes(role));

/** The sections a member of `role` is shown besides the home page: what that role can do. */
export const sectionsFor = (role: string) =>
  navItemsFor(role).filter((item): item is StaffNavItem & { key: StaffSectionKey } => item.key !== 'home');
