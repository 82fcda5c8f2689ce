
import { m } from '@/paraglide/messages';

import type { AdjustmentStatus } from '../api/get-adjustments';

const STATUS_TEXTS = {
  pending: m['staff.adjustments.status.pending'],
  applied: m['staff.adjustments.status.applied'],
  rejected: m['staff.adjustments.status.rejected'],
} satisfies Record<AdjustmentStatus, () => string>;

/** 'Chờ duyệt', 'Đã áp dụng' or 'Đã từ chối'. */
export const adjustmentStatusText = (status: AdjustmentStatus): string => STATUS_TEXTS[status]();
