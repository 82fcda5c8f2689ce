import type { ComponentType } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';

import { NotFound } from '@/components/errors/not-found';
import { RouteError } from '@/components/errors/route-error';
import { PageFallback } from '@/components/feedback/page-fallback';
import { MainLayout } from '@/components/layouts/main-layout';
import { paths } from '@/config/paths';
import { GuestRoute, ProtectedRoute } from '@/lib/auth';

/** Loads a screen's module only when its route is first visited. */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return async () => ({ Component: (await load())[name] });
}

/** The routes whose guard waits for the current user (GET /me) before it renders anything. */
export const USER_ROUTE_IDS: readonly string[] = ['signed-in'];
/** The routes that leave when the user is signed in, but show without waiting to know. */
export const GUEST_ROUTE_IDS: readonly string[] = ['guest'];

/** The whole route table (spec section 2); the browser and the tests build their routers from it. */
export function createRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      errorElement: <RouteError />,
      // Screens load lazily; until the first one has, the page fallback shows.
      HydrateFallback: () => <PageFallback fullPage />,
      children: [
        {
          id: 'signed-in',
          // The signed-in shell (header, menus, side navigation) loads with the first signed-in page.
          lazy: async () => {
            const { ShellLayout } = await import('@/components/layouts/shell-layout');
            return {
              element: (
                <ProtectedRoute>
                  <ShellLayout />
                </ProtectedRoute>
              ),
            };
          },
          children: [
            {
              index: true,
              lazy: screen(() => import('@/features/profile/components/profile-screen'), 'ProfileScreen'),
            },
            {
              path: 'security',
              lazy: screen(() => import('@/features/security/components/security-screen'), 'SecurityScreen'),
            },
            {
              path: 'payment',
              lazy: screen(() => import('@/features/payment/components/payment-layout'), 'PaymentLayout'),
              children: [
                {
                  index: true,
                  lazy: screen(() => import('@/features/payment/components/payment-index'), 'PaymentIndex'),
                },
                {
                  path: 'bank-transfer',
                  lazy: screen(
                    () => import('@/features/payment/components/bank-transfer-screen'),
                    'BankTransferScreen',
                  ),
                },
                {
                  path: 'e-wallet',
                  lazy: screen(() => import('@/features/payment/components/e-wallet-screen'), 'EWalletScreen'),
                },
                {
                  path: 'card',
                  lazy: screen(() => import('@/features/payment/components/card-screen'), 'CardScreen'),
                },
              ],
            },
            {
              id: 'recharge',
              path: 'recharge',
              lazy: screen(() => import('@/features/recharge/components/recharge-layout'), 'RechargeLayout'),
              children: [
                {
                  index: true,
                  lazy: screen(() => import('@/features/recharge/components/recharge-index'), 'RechargeIndex'),
                },
                {
                  path: ':productCode',
                  lazy: screen(
                    () => import('@/features/recharge/components/coin-recharge-screen'),
                    'CoinRechargeScreen',
                  ),
                },
              ],
            },
            {
              path: 'giftcode',
              lazy: screen(() => import('@/features/giftcode/components/giftcode-screen'), 'GiftcodeScreen'),
            },
            {
              id: 'transactions',
              path: 'transactions',
              lazy: screen(
                () => import('@/features/transactions/components/transactions-screen'),
                'TransactionsScreen',
              ),
            },
            {
              path: 'transactions/all',
              lazy: screen(
                () => import('@/features/transactions/components/all-transactions-screen'),
                'AllTransactionsScreen',
              ),
            },
            {
              path: 'transactions/:id',
              lazy: screen(() => import('@/features/transactions/components/receipt-screen'), 'ReceiptScreen'),
            },
          ],
        },
        {
          // The staff console: its own sign-in, layout and pages, all in its own chunks.
          path: 'staff/*',
          lazy: screen(() => import('@/features/staff/components/staff-console'), 'StaffConsole'),
        },
        {
          element: <MainLayout />,
          children: [
            {
              id: 'guest',
              children: [
                {
                  // A signed-in player leaves /login by a full page load (spec section 2, "Sign-in").
                  element: (
                    <GuestRoute leaveBy="page-load">
                      <Outlet />
                    </GuestRoute>
                  ),
                  children: [
                    {
                      path: 'login',
                      lazy: screen(() => import('@/features/auth/components/login-screen'), 'LoginScreen'),
                    },
                  ],
                },
                {
                  element: (
                    <GuestRoute>
                      <Outlet />
                    </GuestRoute>
                  ),
                  children: [
                    {
                      path: 'register',
                      lazy: screen(() => import('@/features/auth/components/register-screen'), 'RegisterScreen'),
                    },
                  ],
                },
              ],
            },
            {
              path: 'recovery',
              children: [
                {
                  index: true,
                  lazy: screen(() => import('@/features/recovery/components/recovery-screen'), 'RecoveryScreen'),
                },
                {
                  path: 'forgot-password',
                  lazy: screen(
                    () => import('@/features/recovery/components/forgot-password-screen'),
                    'ForgotPasswordScreen',
                  ),
                },
                {
                  path: 'forgot-password/:token',
                  lazy: screen(
                    () => import('@/features/recovery/components/reset-password-screen'),
                    'ResetPasswordScreen',
                  ),
                },
                {
                  path: 'forgot-username',
                  lazy: screen(
                    () => import('@/features/recovery/components/forgot-username-screen'),
                    'ForgotUsernameScreen',
                  ),
                },
              ],
            },
            {
              path: 'email-verification',
              children: [
                { index: true, element: <Navigate to={paths.login} replace /> },
                {
                  path: ':token',
                  lazy: screen(
                    () => import('@/features/email-verification/components/email-verification-screen'),
                    'EmailVerificationScreen',
                  ),
                },
              ],
            },
            {
              // The link of the new-device mail: public, as the mail may be read on any device.
              path: 'end-session',
              children: [
                { index: true, element: <Navigate to={paths.login} replace /> },
                {
                  path: ':token',
                  lazy: screen(
                    () => import('@/features/end-session/components/end-session-screen'),
                    'EndSessionScreen',
                  ),
                },
              ],
            },
            {
              // The support centre: /support and its tickets' pages, which its screen matches itself.
              path: 'support/*',
              lazy: screen(() => import('@/features/support/components/support-screen'), 'SupportScreen'),
            },
            {
              // Where closing the account leads: public, as every session of the player has ended.
              path: 'account-closed',
              lazy: screen(
                () => import('@/features/profile/components/account-closed-screen'),
                'AccountClosedScreen',
              ),
            },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}
