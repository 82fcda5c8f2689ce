//! Players' transfer contents: drawn on first use, and read back out of a bank transfer.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{db, domain::syntax};

/// How often a new transfer content is drawn when the first collides with another player's.
const SYNTAX_ATTEMPTS: usize = 8;

/// The player's transfer content, drawn on first use.
pub async fn payment_syntax(conn: &mut PgConnection, user_id: Uuid) -> Result<String, sqlx::Error> {
    for _ in 0..SYNTAX_ATTEMPTS {
        if let Some(syntax) = db::methods::syntax_of(conn, user_id).await? {
            return Ok(syntax);
        }
        // Either conflict (this player meanwhile, or another player's content) leaves no row;
        // the next round reads the first or draws again.
        db::methods::insert_syntax(conn, user_id, &syntax::generate()).await?;
    }
    Err(sqlx::Error::Protocol(
        "no free transfer content after several draws".into(),
    ))
}

/// The player whose transfer content `content` carries: none when it carries no known
/// content, or the contents of two different players (support sorts that out).
pub async fn player_for_content(conn: &mut PgConnection, content: &str) -> Result<Option<Uuid>, sqlx::Error> {
    let candidates = syntax::candidates(content);
    if candidates.is_empty() {
        return Ok(None);
    }
    let players = db::methods::players_with_syntax(conn, &candidates).await?;
    Ok(match players.as_slice() {
        [player] => Some(*player),
        _ => None,
    })
}
