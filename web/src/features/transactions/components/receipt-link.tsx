import { ReceiptText } from 'lucide-react';
import { Link as RouterLink, useLocation } from 'react-router';

import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

/** Where a receipt's back link returns: the page (with its filters) that opened it. */
export type ReceiptLocationState = { from?: string };

/** 'Xem biên lai': the transaction's receipt, remembering this page for its back link. */
export function ReceiptLink({ id }: { id: string }) {
  const { pathname, search } = useLocation();
  const state: ReceiptLocationState = { from: `${pathname}${search}` };
  return (
    <Link asChild color="brand.fg" fontWeight="medium" fontSize="sm" whiteSpace="nowrap">
      <RouterLink to={paths.transactionReceipt(id)} state={state}>
        <ReceiptText size={16} aria-hidden />
        {m['transactions.all.viewReceipt']()}
      </RouterLink>
    </Link>
  );
}
