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

import { STAFF_ROLES, type StaffRole } from '../utils/roles';

import { staffPaths } from './paths';

/** The sections besides the home page; `staff.abilities.{key}` says what each is for. */
export type StaffSectionKey = 'members' | 'players' | 'tickets' | 'transfers' | 'adjustments' | 'audit';

export type StaffNavItem = {
  /** `staff.nav.{key}` names it. */
  key: 'home' | StaffSectionKey;
  to: string;
  /** Only the exact path is this section (for the console's home, which prefixes every page). */
  end?: boolean;
  icon: LucideIcon;
  /** The roles it is shown to. The server still checks every call, whoever sees the link. */
  roles: readonly StaffRole[];
};

/**
 * The console's sections, in the order the navigation lists them: the one place a new page is
 * added (with its route in components/staff-console.tsx and its two texts). The home page lists
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
