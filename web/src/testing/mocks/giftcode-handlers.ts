import { HttpResponse, type HttpHandler } from 'msw';

import type { ErrorBody, GiftcodeRedeemed, GiftItem, RedeemBody } from '@/types/api-schema';

import { buildTransaction } from '../data';

import { acceptsCaptcha, csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';
import { CHARACTER_UNCHECKED, rechargeDb, ZONE_UNKNOWN } from './recharge-handlers';

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
/** A code of in-game items without a zone: the message names the game. */
export const giftZoneRequired = (game: string) => `Hãy chọn máy chủ của ${game} để nhận quà.`;
export const GIFT_ZONE_UNKNOWN = ZONE_UNKNOWN;
export const GIFT_NO_CHARACTER = 'Bạn chưa có nhân vật trên máy chủ này. Hãy vào game tạo nhân vật rồi nhận quà lại.';
export const GIFT_CHARACTER_UNCHECKED = CHARACTER_UNCHECKED;
export const GIFT_ITEMS_SENT = 'Quà đã được gửi tới game, vật phẩm sẽ vào nhân vật của bạn trong giây lát.';
export const GIFT_ITEMS_FAILED = 'Game chưa trao được quà cho nhân vật của bạn. Mã quà tặng vẫn có thể dùng lại.';

/** The Retry-After (seconds) of the locked code's 429. */
export const GIFTCODE_LOCK_SECONDS = 600;

export const WELCOME_CAMPAIGN = 'Chào mừng tân thủ';
export const STARTER_CAMPAIGN = 'Quà tân thủ Phong Thần';
export const STARTER_ITEMS: GiftItem[] = [
  { name: 'Rương Tân Thủ', quantity: 1 },
  { name: 'Bùa May Mắn', quantity: 5 },
];

/** The fake server's giftcode campaigns, by code as the server matches it (trimmed, upper case). */
type Campaign =
  | { kind: 'grant'; campaign: string; kp: number; processing?: boolean }
  | { kind: 'items'; campaign: string; productCode: string; items: GiftItem[] }
  | { kind: 'refuse'; message: string }
  | { kind: 'lock' };

const CAMPAIGNS: Record<string, Campaign> = {
  /** 1,000 KP, once per player. */
  'KID-WELCOME': { kind: 'grant', campaign: WELCOME_CAMPAIGN, kp: 1000 },
  /** Taken, but granted later: 202 processing. */
  'KID-SLOW': { kind: 'grant', campaign: 'Quà chậm', kp: 500, processing: true },
  /** Phong Thần Online's starter items, once per player, to a zone where the player has a character. */
  'KID-TANTHU': { kind: 'items', campaign: STARTER_CAMPAIGN, productCode: 'fsonline', items: STARTER_ITEMS },
  /** As after too many wrong codes: 429 with Retry-After. */
  'KID-LOCK': { kind: 'lock' },
  'KID-EARLY': { kind: 'refuse', message: GIFTCODE_NOT_STARTED },
  'KID-EXPIRED': { kind: 'refuse', message: GIFTCODE_EXPIRED },
  'KID-USED': { kind: 'refuse', message: GIFTCODE_USED },
};

type Answer = { status: 200 | 202; body: GiftcodeRedeemed };

/**
 * The fake server's giftcode state: which player redeemed which campaign, every attempt POST
 * /giftcode/redeem was sent (its Idempotency-Key and body), oldest first, and what the game does
 * with items it was sent: puts them on the character by the time the same key is sent again
 * ('delivers'), cannot ('fails': the campaign may be redeemed again), or never answers
 * ('silent'). The game's zones and characters are the coin top-up's (rechargeDb).
 */
export const giftcodeDb = {
  /** `{username}:{campaign}` of every campaign redeemed. */
  redeemed: new Set<string>(),
  attempts: [] as { idempotencyKey: string | null; body: RedeemBody }[],
  /** The answers given per Idempotency-Key: a repeated key gets the same answer again. */
  answers: new Map<string, Answer>(),
  game: 'delivers' as 'delivers' | 'fails' | 'silent',
};

export function resetGiftcodeDb() {
  giftcodeDb.redeemed = new Set();
  giftcodeDb.attempts = [];
  giftcodeDb.answers = new Map();
  giftcodeDb.game = 'delivers';
}

let redemptionCount = 0;

function nextSuffix() {
  redemptionCount += 1;
  return String(redemptionCount).padStart(12, '0');
}

function grant(campaign: Extract<Campaign, { kind: 'grant' }>): Answer {
  const suffix = nextSuffix();
  const transactionId = `0193f1c2-91f7-7000-8000-${suffix}`;
  const body: GiftcodeRedeemed = {
    redemptionId: `0193f1c2-91f7-7000-9000-${suffix}`,
    campaign: campaign.campaign,
    kp: campaign.kp,
    items: [],
    destination: null,
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

/** The gateway's 422 for an item code's zone: errors.zoneId, and the game to choose a zone of. */
function zoneRefused(message: string, productCode: string) {
  return HttpResponse.json<ErrorBody>({ message, errors: { zoneId: [message] }, productCode }, { status: 422 });
}

/**
 * Items for the player's character on `zoneId` of the campaign's game, checked as the gateway
 * does before anything is recorded: a zone of that game, then a character there (asked of the
 * game). Either the 202 `answer` (sent), or the `refusal`: a 422 of the zone, or a 503 when the
 * game does not answer.
 */
function sendItems(campaign: Extract<Campaign, { kind: 'items' }>, zoneId: number) {
  const info = rechargeDb.infos[campaign.productCode]!;
  if (zoneId <= 0) return { refusal: zoneRefused(giftZoneRequired(info.name), info.code) };
  const zone = info.zones.find((candidate) => candidate.id === zoneId);
  if (!zone) return { refusal: zoneRefused(GIFT_ZONE_UNKNOWN, info.code) };
  if (!rechargeDb.gameAnswers) {
    return { refusal: HttpResponse.json<ErrorBody>({ message: GIFT_CHARACTER_UNCHECKED }, { status: 503 }) };
  }
  if (rechargeDb.noCharacter[info.code]?.includes(zoneId)) {
    return { refusal: zoneRefused(GIFT_NO_CHARACTER, info.code) };
  }
  const suffix = nextSuffix();
  const answer: Answer = {
    status: 202,
    body: {
      redemptionId: `0193f1c2-91f7-7000-9000-${suffix}`,
      campaign: campaign.campaign,
      kp: 0,
      items: campaign.items,
      destination: {
        productCode: info.code,
        productName: info.name,
        zoneId,
        zoneDescription: zone.description,
        characterName: db.user.username,
      },
      status: 'sent',
      transactionId: null,
      message: GIFT_ITEMS_SENT,
    },
  };
  return { answer };
}

/**
 * The same key again: a KP answer as it was; items still 'sent' as far as the game got by now
 * (giftcodeDb.game). A failed delivery gives the campaign back to the player.
 */
function replayAnswer(idempotencyKey: string, first: Answer): Answer {
  if (first.body.status !== 'sent' || giftcodeDb.game === 'silent') return first;
  const failed = giftcodeDb.game === 'fails';
  const answer: Answer = {
    status: 200,
    body: { ...first.body, status: failed ? 'failed' : 'delivered', message: failed ? GIFT_ITEMS_FAILED : null },
  };
  if (failed) giftcodeDb.redeemed.delete(`${db.user.username}:${first.body.campaign}`);
  giftcodeDb.answers.set(idempotencyKey, answer);
  return answer;
}

/**
 * POST /giftcode/redeem, as the gateway answers it: the captcha is checked on every request, a
 * repeated Idempotency-Key included; codes are matched trimmed and without regard to case; see
 * CAMPAIGNS for what each answers, and any other code is wrong.
 */
export const giftcodeHandlers: HttpHandler[] = [
  http.post('/giftcode/redeem', async ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const idempotencyKey = request.headers.get('Idempotency-Key');
    const body = await request.json();
    giftcodeDb.attempts.push({ idempotencyKey, body });
    if (!idempotencyKey) return response(400).json({ message: GIFTCODE_IDEMPOTENCY_KEY_REQUIRED });
    if (!acceptsCaptcha(body.gReCaptchaToken, 'giftcodeFormSubmit')) {
      return validationError({ gReCaptchaToken: [GIFTCODE_CAPTCHA_REFUSED] });
    }
    const replay = giftcodeDb.answers.get(idempotencyKey);
    if (replay) {
      const answer = replayAnswer(idempotencyKey, replay);
      return response(answer.status).json(answer.body);
    }

    const code = typeof body.code === 'string' ? body.code.trim().toUpperCase() : '';
    if (!code) return validationError({ code: [GIFTCODE_REQUIRED] });
    const campaign = CAMPAIGNS[code];
    if (!campaign) return validationError({ code: [GIFTCODE_INVALID] });
    if (campaign.kind === 'refuse') return validationError({ code: [campaign.message] });
    if (campaign.kind === 'lock') {
      return response(429).json(
        { message: GIFTCODE_TOO_MANY },
        { headers: { 'Retry-After': String(GIFTCODE_LOCK_SECONDS) } },
      );
    }
    const redemption = `${db.user.username}:${campaign.campaign}`;
    if (giftcodeDb.redeemed.has(redemption)) return validationError({ code: [GIFTCODE_ALREADY_REDEEMED] });
    let answer: Answer;
    if (campaign.kind === 'items') {
      const sent = sendItems(campaign, body.zoneId ?? 0);
      if (!sent.answer) return sent.refusal;
      answer = sent.answer;
    } else {
      answer = grant(campaign);
    }
    giftcodeDb.redeemed.add(redemption);
    giftcodeDb.answers.set(idempotencyKey, answer);
    return response(answer.status).json(answer.body);
  }),
];
