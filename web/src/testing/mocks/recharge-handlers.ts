import type { HttpHandler } from 'msw';

import type { CoinOrder, CoinRechargeBody, Product, RechargeInfo } from '@/types/api-schema';

import { buildTransaction } from '../data';

import { acceptsCaptcha, csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's wording of coin top-up refusals. */
export const PRODUCT_NOT_FOUND = 'Không tìm thấy sản phẩm.';
export const NOT_ENOUGH_CREDIT = 'Số dư KP của bạn không đủ để thực hiện giao dịch này.';
export const ZONE_REQUIRED = 'Hãy chọn máy chủ bạn muốn nạp.';
export const ZONE_UNKNOWN = 'Máy chủ bạn chọn không tồn tại.';
export const AMOUNT_UNKNOWN = 'Mệnh giá bạn chọn không hợp lệ.';
export const IDEMPOTENCY_KEY_REQUIRED = 'Thiếu Idempotency-Key.';
export const RECHARGE_CAPTCHA_REFUSED = 'Không xác minh được bạn không phải là người máy, hãy thử lại.';
export const NO_CHARACTER = 'Bạn chưa có nhân vật trên máy chủ này. Hãy vào game tạo nhân vật rồi nạp lại.';
export const CHARACTER_UNCHECKED = 'Chưa kiểm tra được nhân vật của bạn trên máy chủ này, xin thử lại sau ít phút.';

export function buildProducts(): Product[] {
  return [
    { code: 'fsonline', name: 'Phong Thần Online', logoImg: '/images/products/fsonline.svg' },
    { code: 'jxonline2', name: 'Võ Lâm Truyền Kỳ 2', logoImg: '/images/products/jxonline2.svg' },
    { code: 'jxsj2', name: 'Kiếm Thế 2', logoImg: '/images/products/jxsj2.svg' },
  ];
}

const TILES = [
  { credit: 20000, coinsReceived: 200, coinsBonus: 0 },
  { credit: 50000, coinsReceived: 500, coinsBonus: 0 },
  { credit: 100000, coinsReceived: 1000, coinsBonus: 50 },
  { credit: 200000, coinsReceived: 2000, coinsBonus: 150 },
  { credit: 500000, coinsReceived: 5000, coinsBonus: 500 },
  { credit: 1000000, coinsReceived: 10000, coinsBonus: 1500 },
];

/**
 * What GET /payment/coin-recharge/{code} answers per game: fsonline with a coin-bonus and a
 * lottery event, jxonline2 with none, jxsj2 (coin 'Vàng') with a coin-bonus event.
 */
export function buildCoinRechargeInfos(): Record<string, RechargeInfo> {
  const period = { startsAt: '2026-11-01T00:00:00Z', endsAt: '2026-12-31T16:59:59Z' };
  return {
    fsonline: {
      code: 'fsonline',
      name: 'Phong Thần Online',
      coinName: 'Xu',
      homePageUrl: 'https://fs.kid.example',
      zones: [
        { id: 1, description: 'Máy chủ 1 - Thiên Long' },
        { id: 2, description: 'Máy chủ 2 - Bạch Hổ' },
      ],
      payableValues: TILES,
      rechargeEvents: [
        { name: 'Mừng xuân', type: 'recharge.bonus_coin', config: { coinBonusRate: 0.1 }, ...period },
        { name: 'Vòng quay may mắn', type: 'recharge.bonus_lottery_point', config: { extpointRate: 0.5 }, ...period },
      ],
    },
    jxonline2: {
      code: 'jxonline2',
      name: 'Võ Lâm Truyền Kỳ 2',
      coinName: 'Xu',
      homePageUrl: 'https://jx2.kid.example',
      zones: [{ id: 1, description: 'Máy chủ 1 - Tương Dương' }],
      payableValues: TILES,
      rechargeEvents: [],
    },
    jxsj2: {
      code: 'jxsj2',
      name: 'Kiếm Thế 2',
      coinName: 'Vàng',
      homePageUrl: 'https://ks2.kid.example',
      zones: [
        { id: 1, description: 'Máy chủ 1 - Long Môn' },
        { id: 3, description: 'Máy chủ 3 - Phượng Tường' },
      ],
      payableValues: TILES.map((tile) => ({ ...tile, coinsReceived: tile.coinsReceived * 10, coinsBonus: tile.coinsBonus * 10 })),
      rechargeEvents: [{ name: 'Nạp nhận thêm Vàng', type: 'recharge.bonus_coin', config: { coinBonusRate: 0.05 }, ...period }],
    },
  };
}

/**
 * The fake server's coin top-up state: the games it sells, the orders it took, and the game's
 * answer to character checks: a character named after the player on every server except
 * `noCharacter`'s, or no answer at all (`gameAnswers` false: 503, and orders go on, as the
 * gateway's default `allow`).
 */
export const rechargeDb = {
  products: buildProducts(),
  infos: buildCoinRechargeInfos(),
  /** Per game, the servers where the player has no character. */
  noCharacter: {} as Record<string, number[]>,
  gameAnswers: true,
  /** The orders POST /payment/coin-recharge/{code} took, oldest first, with their keys. */
  orders: [] as { idempotencyKey: string; body: Required<CoinRechargeBody>; result: CoinOrder }[],
};

export function resetRechargeDb() {
  rechargeDb.products = buildProducts();
  rechargeDb.infos = buildCoinRechargeInfos();
  rechargeDb.noCharacter = {};
  rechargeDb.gameAnswers = true;
  rechargeDb.orders = [];
}

let orderCount = 0;

/**
 * As the recharge service (design/money.md, "Paying for game coin"): the event bonus is
 * floor(coinsReceived × coinBonusRate), lottery points floor(coins ÷ 100) × extpointRate × 100,
 * and the tile's coinsBonus is the milestone bonus.
 */
function fulfil(info: RechargeInfo, body: Required<CoinRechargeBody>, zoneDescription: string): CoinOrder {
  const tile = info.payableValues.find((value) => value.credit === body.creditAmount)!;
  let eventBonus = 0;
  let lotteryPoints = 0;
  for (const event of info.rechargeEvents) {
    if (event.type === 'recharge.bonus_coin') eventBonus += Math.floor(tile.coinsReceived * (event.config.coinBonusRate ?? 0));
    if (event.type === 'recharge.bonus_lottery_point') {
      lotteryPoints += Math.floor(tile.coinsReceived / 100) * Math.round((event.config.extpointRate ?? 0) * 100);
    }
  }
  orderCount += 1;
  const suffix = String(orderCount).padStart(12, '0');
  return {
    orderId: `0193f1c2-c011-7000-8000-${suffix}`,
    transactionId: `0193f1c2-7a11-7000-8000-${suffix}`,
    // Paid and sent to the game (201); 'processing' (202) is for a payment not yet confirmed.
    status: 'awaiting_delivery',
    productCode: info.code,
    coinName: info.coinName,
    zoneId: body.zoneId,
    zoneDescription,
    credit: tile.credit,
    coins: tile.coinsReceived,
    milestoneBonus: tile.coinsBonus,
    eventBonus,
    lotteryPoints,
  };
}

const hasNoCharacter = (productCode: string, zoneId: number) =>
  rechargeDb.noCharacter[productCode]?.includes(zoneId) ?? false;

/**
 * Handlers for GET /product, GET and POST /payment/coin-recharge/{productCode} and GET
 * /payment/coin-recharge/{productCode}/character.
 */
export const rechargeHandlers: HttpHandler[] = [
  http.get('/product', ({ request, response }) => {
    record(request);
    return db.signedIn ? response(200).json(rechargeDb.products) : unauthenticated();
  }),

  http.get('/payment/coin-recharge/{product_code}', ({ request, params, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    const info = rechargeDb.infos[params.product_code];
    return info ? response(200).json(info) : response(404).json({ message: PRODUCT_NOT_FOUND });
  }),

  http.get('/payment/coin-recharge/{product_code}/character', ({ request, params, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    const info = rechargeDb.infos[params.product_code];
    if (!info) return response(404).json({ message: PRODUCT_NOT_FOUND });
    const zoneId = Number(new URL(request.url).searchParams.get('zoneId')?.trim() || 0);
    if (!Number.isInteger(zoneId) || zoneId <= 0) return validationError({ zoneId: [ZONE_REQUIRED] });
    if (!info.zones.some((zone) => zone.id === zoneId)) return validationError({ zoneId: [ZONE_UNKNOWN] });
    if (!rechargeDb.gameAnswers) return response(503).json({ message: CHARACTER_UNCHECKED });
    if (hasNoCharacter(info.code, zoneId)) return response(404).json({ message: NO_CHARACTER });
    return response(200).json({ name: db.user.username });
  }),

  http.post(
    '/payment/coin-recharge/{product_code}',
    async ({ request, params, response }) => {
      record(request);
      if (!db.signedIn) return unauthenticated();
      if (!hasValidXsrf(request)) return csrfMismatch();
      const idempotencyKey = request.headers.get('Idempotency-Key') ?? '';
      if (!idempotencyKey) return response(400).json({ message: IDEMPOTENCY_KEY_REQUIRED });
      const replay = rechargeDb.orders.find((order) => order.idempotencyKey === idempotencyKey);
      if (replay) return response(201).json(replay.result);

      const info = rechargeDb.infos[params.product_code];
      if (!info) return response(404).json({ message: PRODUCT_NOT_FOUND });
      const raw = await request.json();
      if (!acceptsCaptcha(raw.gReCaptchaToken, 'coinRechargeFormSubmit')) {
        return validationError({ gReCaptchaToken: [RECHARGE_CAPTCHA_REFUSED] });
      }
      const body: Required<CoinRechargeBody> = {
        zoneId: typeof raw.zoneId === 'number' ? raw.zoneId : 0,
        creditAmount: typeof raw.creditAmount === 'number' ? raw.creditAmount : 0,
        gReCaptchaToken: raw.gReCaptchaToken ?? '',
      };
      const errors: Record<string, string[]> = {};
      const zone = info.zones.find((candidate) => candidate.id === body.zoneId);
      if (body.zoneId <= 0) errors.zoneId = [ZONE_REQUIRED];
      else if (!zone) errors.zoneId = [ZONE_UNKNOWN];
      if (!info.payableValues.some((value) => value.credit === body.creditAmount)) errors.creditAmount = [AMOUNT_UNKNOWN];
      if (Object.keys(errors).length > 0) return validationError(errors);
      // Before any KP moves, the game is asked for the character.
      if (rechargeDb.gameAnswers && hasNoCharacter(info.code, body.zoneId)) {
        return validationError({ zoneId: [NO_CHARACTER] });
      }
      if (db.user.credit < body.creditAmount) return response(409).json({ message: NOT_ENOUGH_CREDIT });

      const result = fulfil(info, body, zone!.description);
      rechargeDb.orders.push({ idempotencyKey, body, result });
      db.user = { ...db.user, credit: db.user.credit - result.credit };
      db.transactions = [
        buildTransaction({
          id: result.transactionId,
          type: 'credit.pay',
          status: 'success',
          realValue: result.credit,
          currency: 'KP',
          updatedAt: new Date().toISOString(),
          createdAt: new Date().toISOString(),
          payload: {
            metadata: {
              coin: result.coins,
              coinBonus: result.milestoneBonus + result.eventBonus,
              productCode: info.code,
              productName: info.name,
              coinName: info.coinName,
            },
          },
        }),
        ...db.transactions,
      ];
      return response(201).json(result);
    },
  ),
];
