-- Mail is kept under the player it was written to, not only under the address it went to: a
-- player who changed their address still finds, in the download of their data, the mail sent
-- to the earlier one, and erasing the account removes it. A notice to an address's owner about
-- another account stays without a player (null), found by its address as before.
--
-- Expand only: a service still on the previous version inserts mail without a player, which
-- the export and the erasure still find by address. Earlier rows are not back-filled: which
-- player an earlier address belonged to is not kept anywhere.
alter table mail_message add column user_id uuid;

create index mail_message_of_player on mail_message (user_id) where user_id is not null;
