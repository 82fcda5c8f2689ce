import { http, HttpResponse, type HttpHandler } from 'msw';

import type { ErrorBody } from '@/types/api-schema';

import { buildTransaction } from '../data';

import { acceptsCaptcha, API, csrfMismatch, hasValidXsrf, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's wording of giftcode refusals. */
export const GIFTCODE_REQUIRED = 'Vui lòng nhập mã quà tặng.';
export const GIFTCODE_INVALID = 'Mã quà tặng không đúng.';
export const GIFTCODE_NOT_STARTED = 'Mã quà tặng chưa đến thời gian sử dụng.';
export const GIFTCODE_EXPIRED = 'Mã quà tặng đã hết hạn.';
export const GIFTCODE_USED = 'Mã quà tặng đã được sử dụng.';
export const GIFTCODE_ALREADY_REDEEMED = 'Bạn đã nhận quà của chương trình này rồi.';
export const GIFTCODE_TOO_MANY = 'Bạn đã nhập sai mã quà tặng quá nhiều lần. Vui lòng thử lại sau 10 phút.';
export const GIFTCODE_PROCESSING = 'Yêu cầu nhận quà của bạn đang được xử lý, KP sẽ được cộng vào tài khoản trong ít phút.';
export const GIFTCODE_CAPTCHA_REFUSED = 'Không xác minh được bạn không phải là người máy, hãy thử lại.';
export const GIFTCODE_IDEMPOTENCY_KEY_REQUIRED = 'Thiếu Idempotency-Key.';

/** The Retry-After (seconds) of the locked code's 429. */
export const GIFTCODE_LOCK_SECONDS = 600;

export const WELCOME_CAMPAIGN = 'Chào mừng tân thủ';

/** The fake server's giftcode campaigns, by code as the server matches it (trimmed, upper case). */
type Campaign =
  | { kind: 'grant'; campaign: string; kp: number; processing?: boolean }
  | { kind: 'refuse'; message: string }
  | { kind: 'lock' };

const CAMPAIGNS: Record<string, Campaign> = {
  /** 1,000 KP, once per player. */
  'KID-WELCOME': { kind: 'grant', campaign: WELCOME_CAMPAIGN, kp: 1000 },
  /** Taken, but granted later: 202 processing. */
  'KID-SLOW': { kind: 'grant', campaign: 'Quà chậm', kp: 500, processing: true },
  /** As after too many wrong codes: 429 with Retry-After. */
  'KID-LOCK': { kind: 'lock' },
  'KID-EARLY': { kind: 'refuse', message: GIFTCODE_NOT_STARTED },
  'KID-EXPIRED': { kind: 'refuse', message: GIFTCODE_EXPIRED },
  'KID-USED': { kind: 'refuse', message: GIFTCODE_USED },
};

type Redeemed = {
  redemptionId: string;
  campaign: string;
  kp: number;
  status: 'granted' | 'processing';
  transactionId: string;
  message?: string;
};

/**
 * The fake server's giftcode state: which player redeemed which campaign, and every attempt
 * POST /giftcode/redeem was sent (its Idempotency-Key and body), oldest first.
 */
export const giftcodeDb = {
  /** `{username}:{campaign}` of every campaign redeemed. */
  redeemed: new Set<string>(),
  attempts: [] as { idempotencyKey: string | null; body: { code?: unknown; gReCaptchaToken?: unknown } }[],
  /** The answers given per Idempotency-Key: a repeated key gets the same answer again. */
  answers: new Map<string, { status: number; body: Redeemed }>(),
};

export function resetGiftcodeDb() {
  giftcodeDb.redeemed = new Set();
  giftcodeDb.attempts = [];
  giftcodeDb.answers = new Map();
}

let redemptionCount = 0;

function grant(campaign: Extract<Campaign, { kind: 'grant' }>): { status: number; body: Redeemed } {
  redemptionCount += 1;
  const suffix = String(redemptionCount).padStart(12, '0');
  const transactionId = `0193f1c2-91f7-7000-8000-${suffix}`;
  const body: Redeemed = {
    redemptionId: `0193f1c2-91f7-7000-9000-${suffix}`,
    campaign: campaign.campaign,
    kp: campaign.kp,
    status: campaign.processing ? 'processing' : 'granted',
    transactionId,
    ...(campaign.processing ? { message: GIFTCODE_PROCESSING } : {}),
  };
  if (campaign.processing) return { status: 202, body };
  const now = new Date().toISOString();
  db.user = { ...db.user, credit: db.user.credit + campaign.kp };
  db.transactions = [
    buildTransaction({
      id: transactionId,
      type: 'giftcode',
      status: 'success',
      realValue: campaign.kp,
      currency: 'KP',
      createdAt: now,
      updatedAt: now,
      payload: { campaign: campaign.campaign },
      relatedTransactions: [],
    }),
    ...db.transactions,
  ];
  return { status: 200, body };
}

/**
 * POST /giftcode/redeem, as the gateway will answer it (the path is not in the OpenAPI document
 * yet, hence MSW's own `http`): codes are matched trimmed and without regard to case; see
 * CAMPAIGNS for what each answers, and any other code is wrong.
 */
export const giftcodeHandlers: HttpHandler[] = [
  http.post(`${API}/giftcode/redeem`, async ({ request }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const idempotencyKey = request.headers.get('Idempotency-Key');
    const body = (await request.json()) as { code?: unknown; gReCaptchaToken?: unknown };
    giftcodeDb.attempts.push({ idempotencyKey, body });
    if (!idempotencyKey) {
      return HttpResponse.json<ErrorBody>({ message: GIFTCODE_IDEMPOTENCY_KEY_REQUIRED }, { status: 400 });
    }
    const replay = giftcodeDb.answers.get(idempotencyKey);
    if (replay) return HttpResponse.json(replay.body, { status: replay.status });

    if (!acceptsCaptcha(body.gReCaptchaToken, 'giftcodeFormSubmit')) {
      return validationError({ gReCaptchaToken: [GIFTCODE_CAPTCHA_REFUSED] });
    }
    const code = typeof body.code === 'string' ? body.code.trim().toUpperCase() : '';
    if (!code) return validationError({ code: [GIFTCODE_REQUIRED] });
    const campaign = CAMPAIGNS[code];
    if (!campaign) return validationError({ code: [GIFTCODE_INVALID] });
    if (campaign.kind === 'refuse') return validationError({ code: [campaign.message] });
    if (campaign.kind === 'lock') {
      return HttpResponse.json<ErrorBody>(
        { message: GIFTCODE_TOO_MANY },
        { status: 429, headers: { 'Retry-After': String(GIFTCODE_LOCK_SECONDS) } },
      );
    }
    const redemption = `${db.user.username}:${campaign.campaign}`;
    if (giftcodeDb.redeemed.has(redemption)) return validationError({ code: [GIFTCODE_ALREADY_REDEEMED] });
    giftcodeDb.redeemed.add(redemption);
    const answer = grant(campaign);
    giftcodeDb.answers.set(idempotencyKey, answer);
    return HttpResponse.json(answer.body, { status: answer.status });
  }),
];
