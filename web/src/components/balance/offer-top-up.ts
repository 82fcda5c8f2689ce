import { matchPath, useLocation } from 'react-router';

import { paths } from '@/config/paths';

/** Spec section 2: 'Nạp thẻ' is offered when the balance is 0, except on the top-up pages. */
export function useOfferTopUp(credit: number | undefined): boolean {
  const { pathname } = useLocation();
  const onTopUpPages = matchPath({ path: paths.payment, end: false }, pathname) !== null;
  return credit !== undefined && credit <= 0 && !onTopUpPages;
}
