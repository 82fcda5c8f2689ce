import type { HttpHandler } from 'msw';

import type { CardBody, CardFee, CardProvider, PaymentMethods, Transaction, TransferMethod } from '@/types/api-schema';

import { buildTransaction } from '../data';

import { acceptsCaptcha, csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's and payment service's wording (gateway/src/api/payment.rs, services/payment/src). */
export const CARD_SENT = 'Gửi thẻ thành công! Thẻ của bạn sẽ được xử lý trong 1-30 giây.';
export const CARD_ALREADY_PENDING = 'Thẻ này đang được xử lý, hãy chờ kết quả trước khi nạp lại.';
export const CARD_PROVIDER_UNKNOWN = 'Loại thẻ bạn chọn không tồn tại.';
/** As handlers.ts's CAPTCHA_REFUSED (not imported from there: it imports this module). */
export const PAYMENT_CAPTCHA_REFUSED = 'Không xác minh được bạn không phải là người máy, hãy thử lại.';

/** The demo player's transfer content: KID and seven characters without 0, O, 1, I or L. */
export const PAYMENT_SYNTAX = 'KIDAB23CD4';

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as VietQR's field 63 carries it. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** The NAPAS VietQR payload of a transfer with no amount set (design/money.md, "VietQR"). */
export function vietQr({ bankBin, accountNumber, content }: { bankBin: string; accountNumber: string; content: string }) {
  const merchant = field('00', 'A000000727') + field('01', field('00', bankBin) + field('01', accountNumber)) + field('02', 'QRIBFTTA');
  const payload =
    field('00', '01') + field('01', '11') + field('38', merchant) + field('53', '704') + field('58', 'VN') + field('62', field('08', content)) + '6304';
  return payload + crc16(payload);
}

/**
 * As the payment service's seed: every method carries a VietQR code to its account (Vietcombank
 * 970436, Techcombank 970407; MoMo 971025 and ViettelPay 971005 to the wallet's number).
 */
export function buildPaymentMethods(syntax = PAYMENT_SYNTAX): PaymentMethods {
  const bank = (code: string, name: string, bankBin: string, accountNumber: string): TransferMethod => ({
    code,
    name,
    exchangeRate: 1,
    qrCodeData: vietQr({ bankBin, accountNumber, content: syntax }),
    paymentSyntax: syntax,
    accountName: 'CONG TY CO PHAN KID',
    accountNumber,
    mobileAccountNumber: '',
    type: 'bank-transfer',
  });
  const wallet = (code: string, name: string, bankBin: string, phone: string): TransferMethod => ({
    code,
    name,
    exchangeRate: 1,
    qrCodeData: vietQr({ bankBin, accountNumber: phone, content: syntax }),
    paymentSyntax: syntax,
    accountName: 'CONG TY CO PHAN KID',
    accountNumber: phone,
    mobileAccountNumber: phone,
    type: 'e-wallet',
  });
  const carrierValues = [10000, 20000, 50000, 100000, 200000, 300000, 500000];
  const card = (code: string, name: string, payableValues: number[], enabled = true): CardProvider => ({
    code,
    name,
    exchangeRate: 1,
    payableValues,
    enabled,
  });
  return {
    bankTransfers: [
      bank('vietcombank', 'Vietcombank', '970436', '1023456789'),
      bank('techcombank', 'Techcombank', '970407', '19036677889900'),
    ],
    eWallets: [
      wallet('momo', 'MoMo', '971025', '0901234567'),
      wallet('viettelpay', 'ViettelPay', '971005', '0987654321'),
    ],
    cards: [
      card('viettel', 'Viettel', [...carrierValues, 1000000]),
      card('vinaphone', 'Vinaphone', carrierValues),
      card('mobifone', 'Mobifone', carrierValues),
      card('vietnamobile', 'Vietnamobile', carrierValues, false),
      card('zing', 'Zing', [10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000]),
      card('gate', 'Gate', [10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000]),
      card('vtc', 'VTC', [10000, 20000, 50000, 100000, 200000, 500000, 1000000]),
      card('garena', 'Garena', [20000, 50000, 100000, 200000, 500000]),
    ],
  };
}

/** The seeded fee per brand, the same for each of its face values. */
const FEE_PERCENT: Record<string, number> = {
  viettel: 15,
  vinaphone: 14,
  mobifone: 15,
  vietnamobile: 16,
  zing: 12,
  gate: 12.5,
  vtc: 13,
  garena: 14,
};

export function buildCardFees(methods: PaymentMethods = buildPaymentMethods()): CardFee[] {
  return methods.cards.flatMap((card) =>
    card.payableValues.map((value) => ({ provider: card.code, value, feePercent: FEE_PERCENT[card.code] ?? 15 })),
  );
}

/** The card PIN and serial lengths of the payment service's card_provider table. */
const CODE_LENGTHS: Record<string, { pin: number; serial: number }> = {
  viettel: { pin: 15, serial: 14 },
  vinaphone: { pin: 14, serial: 14 },
  mobifone: { pin: 12, serial: 15 },
  vietnamobile: { pin: 12, serial: 11 },
  zing: { pin: 9, serial: 12 },
  gate: { pin: 10, serial: 10 },
  vtc: { pin: 12, serial: 12 },
  garena: { pin: 16, serial: 9 },
};

/** The fake server's top-up state: the methods and fees it lists, and the cards it accepted. */
export const paymentDb = {
  methods: buildPaymentMethods(),
  fees: buildCardFees(),
  /** The bodies POST /payment/card-recharge accepted, oldest first. */
  cardOrders: [] as Required<CardBody>[],
};

export function resetPaymentDb() {
  paymentDb.methods = buildPaymentMethods();
  paymentDb.fees = buildCardFees(paymentDb.methods);
  paymentDb.cardOrders = [];
}

const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

/** As services/payment's cards::check: the field errors of a card, if any. */
function cardErrors(body: Required<CardBody>): Record<string, string[]> {
  const provider = paymentDb.methods.cards.find((card) => card.code === body.provider);
  if (!provider) {
    return { provider: [body.provider ? CARD_PROVIDER_UNKNOWN : 'Hãy chọn loại thẻ bạn muốn nạp.'] };
  }
  if (!provider.enabled) return { provider: [`Thẻ ${provider.name} tạm thời chưa được hỗ trợ`] };
  const errors: Record<string, string[]> = {};
  if (!provider.payableValues.includes(body.value) || body.value < 10000 || body.value > 5000000) {
    errors.value = ['Hãy chọn mệnh giá bạn muốn nạp.'];
  }
  const lengths = CODE_LENGTHS[provider.code] ?? { pin: 0, serial: 0 };
  if (!body.pin) errors.pin = ['Hãy nhập vào mã thẻ.'];
  else if ([...body.pin].length !== lengths.pin || !ALPHANUMERIC.test(body.pin)) {
    errors.pin = [`Mã thẻ phải có ${lengths.pin} ký tự.`];
  }
  if (!body.serial) errors.serial = ['Hãy nhập vào số seri của thẻ.'];
  else if ([...body.serial].length !== lengths.serial || !ALPHANUMERIC.test(body.serial)) {
    errors.serial = [`Số seri phải có ${lengths.serial} ký tự.`];
  }
  return errors;
}

/** A card of the same brand and serial that the history still shows pending. */
const isPending = (provider: string, serial: string) =>
  db.transactions.some(
    (transaction: Transaction) =>
      transaction.type === 'topup.card' &&
      transaction.status === 'pending' &&
      transaction.payload.provider?.toLowerCase() === provider &&
      transaction.payload.serial === serial,
  );

let orderCount = 0;

/** Handlers for GET /payment/methods, GET /payment/card-recharge/fees and POST /payment/card-recharge. */
export const paymentHandlers: HttpHandler[] = [
  http.get('/payment/methods', ({ request, response }) => {
    record(request);
    return db.signedIn ? response(200).json(paymentDb.methods) : unauthenticated();
  }),

  http.get('/payment/card-recharge/fees', ({ request, response }) => {
    record(request);
    return db.signedIn ? response(200).json(paymentDb.fees) : unauthenticated();
  }),

  http.post('/payment/card-recharge', async ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const raw = await request.json();
    if (!acceptsCaptcha(raw.gReCaptchaToken, 'cardRechargeFormSubmit')) {
      return validationError({ gReCaptchaToken: [PAYMENT_CAPTCHA_REFUSED] });
    }
    const body: Required<CardBody> = {
      provider: (raw.provider ?? '').trim().toLowerCase(),
      value: typeof raw.value === 'number' ? raw.value : 0,
      pin: (raw.pin ?? '').trim(),
      serial: (raw.serial ?? '').trim(),
      gReCaptchaToken: raw.gReCaptchaToken ?? '',
    };
    const errors = cardErrors(body);
    if (Object.keys(errors).length > 0) return validationError(errors);
    if (isPending(body.provider, body.serial)) {
      return response(409).json({ message: CARD_ALREADY_PENDING });
    }
    paymentDb.cardOrders.push(body);
    orderCount += 1;
    const orderId = `0193f1c2-cafe-7000-8000-${String(orderCount).padStart(12, '0')}`;
    db.transactions = [
      buildTransaction({
        id: orderId,
        type: 'topup.card',
        status: 'pending',
        realValue: body.value,
        updatedAt: new Date().toISOString(),
        createdAt: new Date().toISOString(),
        payload: { provider: body.provider, serial: body.serial },
      }),
      ...db.transactions,
    ];
    return response(202).json({ orderId, message: CARD_SENT });
  }),
];
