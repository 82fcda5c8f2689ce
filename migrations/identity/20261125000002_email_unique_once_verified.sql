-- An address belongs to an account for good only once its owner verified it there. Before, any
-- account may name it: registering or moving to an address another account holds then neither
-- fails nor tells a stranger the address has an account (the address's owner is mailed
-- instead), and nobody can squat an address they cannot read. Verifying an address another
-- account has verified fails.
drop index user_account_email_key;
create unique index user_account_verified_email_key on user_account (lower(email)) where verified_at is not null;
create index user_account_email on user_account (lower(email));
