/**
 * What a role may do on a player's page, as the services check it (identity: lock, unlock,
 * sessions, ticket replies for support; recharge: resend for support, refund for finance).
 * The page offers only these; the server refuses the rest whoever calls.
 */
export function playerAbilities(role: string | undefined) {
  const support = role === 'support';
  const finance = role === 'finance';
  return {
    resend: support,
    refund: finance,
    lock: support,
    revokeSessions: support,
    replyTickets: support,
    adjust: finance,
  };
}

export type PlayerAbilities = ReturnType<typeof playerAbilities>;

export const canActOnPlayer = (abilities: PlayerAbilities) => Object.values(abilities).some(Boolean);
