import type { TFunction } from 'i18next';

/** The console's roles, from the least to the most it may do (the server checks each call). */
export const STAFF_ROLES = ['viewer', 'support', 'finance', 'admin'] as const;

export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (role: string): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

/** 'Chỉ xem', 'Hỗ trợ', 'Tài chính' or 'Quản trị'; a role the console does not know yet as sent. */
export const roleLabel = (t: TFunction, role: string): string => (isStaffRole(role) ? t(`staff.roles.${role}`) : role);
