import { m } from '@/paraglide/messages';

/** The console's roles, from the least to the most it may do (the server checks each call). */
export const STAFF_ROLES = ['viewer', 'support', 'finance', 'admin'] as const;

export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (role: string): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

const ROLE_TEXTS = {
  viewer: m['staff.roles.viewer'],
  support: m['staff.roles.support'],
  finance: m['staff.roles.finance'],
  admin: m['staff.roles.admin'],
} satisfies Record<StaffRole, () => string>;

/** 'Chỉ xem', 'Hỗ trợ', 'Tài chính' or 'Quản trị'; a role the console does not know yet as sent. */
export const roleLabel = (role: string): string => (isStaffRole(role) ? ROLE_TEXTS[role]() : role);
