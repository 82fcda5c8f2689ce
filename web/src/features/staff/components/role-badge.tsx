import { Badge, type BadgeProps } from '@/components/ui/badge';

import { roleLabel, type StaffRole } from '../utils/roles';

const PALETTES: Record<StaffRole, BadgeProps['colorPalette']> = {
  viewer: 'gray',
  support: 'blue',
  finance: 'green',
  admin: 'purple',
};

/** A member's role in Vietnamese: 'Chỉ xem', 'Hỗ trợ', 'Tài chính' or 'Quản trị'. */
export function RoleBadge({ role, ...props }: BadgeProps & { role: string }) {
  return (
    <Badge colorPalette={PALETTES[role as StaffRole] ?? 'gray'} variant="subtle" {...props}>
      {roleLabel(role)}
    </Badge>
  );
}
