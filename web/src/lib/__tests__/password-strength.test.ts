import { describe, expect, it } from 'vitest';

import { characterClasses, meetsPasswordLevel, passwordStrength, passwordStrengthError } from '@/lib/password-strength';

import translation from '../../../messages/vi-VN.json';

describe('password strength', () => {
  it('sorts characters into lowercase, uppercase, digit and symbol', () => {
    expect([...characterClasses('aZ9!')].sort()).toEqual(['digit', 'lowercase', 'symbol', 'uppercase']);
    expect([...characterClasses('mậtkhẩu')]).toEqual(['lowercase']);
    expect([...characterClasses('ĐĂNG')]).toEqual(['uppercase']);
    expect([...characterClasses('a b')].sort()).toEqual(['lowercase', 'symbol']);
    expect(characterClasses('').size).toBe(0);
  });

  it.each([
    ['', 'weak'],
    ['abcdefgh', 'weak'],
    ['12345678', 'weak'],
    ['abcdEFGH', 'weak'],
    ['abcd!!!!', 'weak'],
    ['abcdefg1', 'medium'],
    ['ABCDEFG1', 'medium'],
    ['1234567!', 'medium'],
    ['Abcdefg1', 'medium'],
    ['abc1!xyz', 'strong'],
    ['ABC1!XYZ', 'strong'],
    ['Abc!defg', 'strong'],
    ['Abc1!efg', 'veryStrong'],
    ['Mật khẩu 2024', 'veryStrong'],
  ])('%j is %s', (password, level) => {
    expect(passwordStrength(password)).toBe(level);
  });

  it('treats the levels as a ladder', () => {
    expect(meetsPasswordLevel('Abc1!efg', 'medium')).toBe(true);
    expect(meetsPasswordLevel('Abc1!efg', 'strong')).toBe(true);
    expect(meetsPasswordLevel('Abc!defg', 'medium')).toBe(true);
    expect(meetsPasswordLevel('Abcdefg1', 'strong')).toBe(false);
    expect(meetsPasswordLevel('abc1!xyz', 'veryStrong')).toBe(false);
  });

  it('asks for a stronger password with the message of the level required', () => {
    expect(passwordStrengthError('abcdefgh', 'medium')).toBe(translation.password.stronger.medium);
    expect(passwordStrengthError('abcdefg1', 'medium')).toBeNull();
    expect(passwordStrengthError('abcdefg1', 'strong')).toBe(translation.password.stronger.strong);
    expect(passwordStrengthError('abc1!xyz', 'strong')).toBeNull();
    expect(passwordStrengthError('abc1!xyz', 'veryStrong')).toBe(translation.password.stronger.veryStrong);
    expect(passwordStrengthError('Abc1!efg', 'veryStrong')).toBeNull();
  });

  it('has a Vietnamese message for each level', () => {
    const { stronger } = translation.password;
    expect(stronger.medium).toBe(
      'Mật khẩu quá yếu, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 2 loại ký tự, trong đó có chữ số.',
    );
    expect(stronger.strong).toContain('hãy chọn mật khẩu mạnh hơn');
    expect(stronger.strong).toContain('ký hiệu');
    expect(stronger.veryStrong).toContain('chữ thường, chữ hoa, chữ số và ký hiệu');
  });
});
