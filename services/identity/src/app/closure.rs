//! Closing an account at its owner's request, and erasing it after the grace period (Vietnam's
//! Decree 13/2023 on personal data).
//!
//! Closing needs the password. From then on the account is no account to every call (no
//! sign-in, no reset mail, no passkey); only a sign-in with the right password is told it is
//! closed. After `GRACE_DAYS` the sweeper erases it: the row stays under its id, which is the
//! opaque id the wallet's ledger and the orders keep (money records are never deleted), with
//! the username and email replaced by placeholders derived from the id and every other
//! personal field emptied and no lock; its history, passkeys, two-factor, tokens, support tickets
//! (their images' files too) and the mail written to it at any address go. The erasure
//! is published (`identity.account.erased`, through the outbox) for the services that keep the
//! username beside their records.

use std::time::Duration;

use sqlx::PgPool;
use time::OffsetDateTime;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::{Error, account, tickets::AttachmentStore};
use crate::{
    db,
    domain::PasswordHasher,
    events::mail::{self, Mail},
};
use kid_contracts::topics::{ACCOUNT_ERASED, AccountErased};
use kid_platform::outbox;

/// Days between closing an account and erasing it.
pub const GRACE_DAYS: i64 = 30;
/// Accounts erased per transaction of the sweeper.
const ERASE_BATCH: i64 = 100;

/// What an erased account's username and email become: derived from its id (unique, as the
/// columns need), saying nothing of the player.
fn placeholders(user_id: Uuid) -> (String, String) {
    let hex = user_id.simple().to_string();
    (format!("xoa_{}", &hex[..28]), format!("{user_id}@xoa.invalid"))
}

/// When a closed account is erased.
pub fn erase_after(closed_at: OffsetDateTime) -> OffsetDateTime {
    closed_at + time::Duration::days(GRACE_DAYS)
}

/// Closes the player's account: the password, then at once. Answers when it will be erased.
pub async fn close(
    pool: &PgPool,
    hasher: &PasswordHasher,
    user_id: Uuid,
    password: &str,
) -> Result<OffsetDateTime, Error> {
    account::confirm_password(pool, hasher, user_id, "password", password, "account closure").await?;
    let mut tx = pool.begin().await?;
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let closed_at = db::users::close(&mut tx, user_id).await?;
    let erase_at = erase_after(closed_at);
    let text = format!(
        "Xin chào {},\n\n\
         Theo yêu cầu của bạn, tài khoản Kid \"{}\" đã được đóng: không thể đăng nhập vào tài khoản \
         này nữa và mọi phiên đăng nhập đã kết thúc. Sau {GRACE_DAYS} ngày, thông tin cá nhân của tài \
         khoản (tên đăng nhập, email, họ tên, ngày sinh, số điện thoại, lịch sử đăng nhập) sẽ bị xóa \
         vĩnh viễn. Các giao dịch KP được giữ lại theo quy định về chứng từ kế toán, không kèm thông \
         tin cá nhân.\n\n\
         Nếu không phải bạn yêu cầu, hoặc bạn muốn giữ lại tài khoản, hãy liên hệ bộ phận hỗ trợ \
         trước khi hết {GRACE_DAYS} ngày.\n\n\
         Kid",
        account.username, account.username
    );
    mail::enqueue(
        &mut tx,
        user_id,
        &Mail::new(account.email, "Tài khoản Kid của bạn đã được đóng", text),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%user_id, %erase_at, "account closed at its owner's request");
    Ok(erase_at)
}

/// Erases the accounts closed more than `GRACE_DAYS` before `now`, and their ticket images'
/// files once their rows are gone; answers how many accounts.
pub async fn erase_due(
    pool: &PgPool,
    attachments: &AttachmentStore,
    now: OffsetDateTime,
) -> Result<u64, Error> {
    let closed_before = now - time::Duration::days(GRACE_DAYS);
    let mut erased = 0;
    loop {
        let mut tx = pool.begin().await?;
        let due = db::users::due_for_erasure(&mut tx, closed_before, ERASE_BATCH).await?;
        let mut images = Vec::new();
        for &user_id in &due {
            let (username, email) = placeholders(user_id);
            images.extend(db::users::erase(&mut tx, user_id, &username, &email).await?);
            let erased = AccountErased {
                user_id,
                placeholder: username,
            };
            outbox::enqueue(&mut tx, ACCOUNT_ERASED, &erased).await?;
        }
        tx.commit().await?;
        // A file left by a failed removal names no row and no one: logged, not retried.
        for image in images {
            attachments.remove(image).await;
        }
        erased += due.len() as u64;
        for user_id in &due {
            tracing::info!(%user_id, "closed account erased");
        }
        if (due.len() as i64) < ERASE_BATCH {
            return Ok(erased);
        }
    }
}

/// Erases due accounts every `interval` until shut down.
pub async fn run_sweeper(
    pool: PgPool,
    attachments: AttachmentStore,
    interval: Duration,
    shutdown: CancellationToken,
) {
    while !shutdown.is_cancelled() {
        if let Err(error) = erase_due(&pool, &attachments, OffsetDateTime::now_utc()).await {
            tracing::warn!(%error, "erasing closed accounts failed; retried next round");
        }
        tokio::select! {
            () = tokio::time::sleep(interval) => {}
            () = shutdown.cancelled() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_erased_accounts_placeholders_fit_the_columns_and_name_nobody() {
        let id = Uuid::now_v7();
        let (username, email) = placeholders(id);
        assert_eq!(username.len(), 32);
        assert!(
            username
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        );
        assert_ne!(placeholders(Uuid::now_v7()).0, username);
        assert_eq!(email, format!("{id}@xoa.invalid"));
    }
}
