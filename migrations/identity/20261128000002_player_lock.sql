-- Support locks an account (a stolen one, say): the right password no longer signs it in, nor
-- does a passkey, until support unlocks it. Existing sessions are ended by the gateway.
alter table user_account
    add column locked_at timestamptz,
    add column locked_reason text;
