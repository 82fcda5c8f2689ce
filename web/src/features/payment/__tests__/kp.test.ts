import { describe, expect, it } from 'vitest';

import { crc16, PAYMENT_SYNTAX, vietQr } from '@/testing/mocks/payment-handlers';

import { cardCodeLengths } from '../api/recharge-card';
import { cardKp, partnerBonusKp, transferKp } from '../utils/kp';
import { partnerBonusPercent, partnerTier } from '../utils/partner';

describe('KP of a top-up (design/money.md)', () => {
  it('a 100,000 card at a 15% fee gives 85,000 KP, and 21,250 KP more at the 25% tier', () => {
    const kp = cardKp(100_000, 15, 1);
    expect(kp).toBe(85_000);
    expect(partnerBonusKp(kp, 25)).toBe(21_250);
  });

  it('floors once, on exact decimals', () => {
    expect(cardKp(10_000, 12.5, 1)).toBe(8_750);
    // 0.1 and 0.7 have no exact binary form; the result must not lose a point to rounding.
    expect(cardKp(100_000, 30, 1.1)).toBe(77_000);
    expect(cardKp(33_333, 14, 1)).toBe(28_666);
    expect(transferKp(10_000, 1.15)).toBe(11_500);
    expect(transferKp(10_000, 0.0003)).toBe(3);
    expect(partnerBonusKp(85_001, 15)).toBe(12_750);
  });

  it('gives nothing for a fee of 100% or a rate of 0', () => {
    expect(cardKp(100_000, 100, 1)).toBe(0);
    expect(transferKp(10_000, 0)).toBe(0);
  });
});

describe('partner tiers', () => {
  it.each([
    [false, 150_000_000, null],
    [true, 0, 15],
    [true, 20_000_000, 15],
    [true, 49_999_999, 15],
    [true, 50_000_000, 20],
    [true, 100_000_000, 25],
    [true, 400_000_000, 25],
  ])('a player with isPayPartner %s and %s VND over 28 days gets %s%%', (isPayPartner, payAmountLast28Days, percent) => {
    expect(partnerTier({ isPayPartner, payAmountLast28Days })?.bonusPercent ?? null).toBe(percent);
    expect(partnerBonusPercent({ isPayPartner, payAmountLast28Days })).toBe(percent ?? 0);
  });
});

describe('card code lengths', () => {
  it('follow the spec table, upper-case codes included, and are 0 for an unknown brand', () => {
    expect(cardCodeLengths('viettel')).toEqual({ pin: 15, serial: 14 });
    expect(cardCodeLengths('GARENA')).toEqual({ pin: 16, serial: 9 });
    expect(cardCodeLengths('zing')).toEqual({ pin: 9, serial: 12 });
    expect(cardCodeLengths('somecard')).toEqual({ pin: 0, serial: 0 });
  });
});

describe('the fake server’s VietQR codes', () => {
  it('carry CRC-16/CCITT-FALSE as NAPAS specifies', () => {
    expect(crc16('123456789')).toBe('29B1');
    const napas =
      '00020101021238570010A00000072701270006970403011300110123456780208QRIBFTTA530370454061800005802VN62340107NPS68690819thanh toan don hang6304';
    expect(crc16(napas)).toBe('2E2E');
  });

  it('carry the bank, the account and the transfer content', () => {
    const code = vietQr({ bankBin: '970436', accountNumber: '1023456789', content: PAYMENT_SYNTAX });
    expect(code).toBe(
      `00020101021138540010A00000072701240006970436011010234567890208QRIBFTTA53037045802VN62140810${PAYMENT_SYNTAX}6304${crc16(code.slice(0, -4))}`,
    );
  });
});
