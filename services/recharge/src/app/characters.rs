//! Asking a game whether the player has a character on the chosen zone, before any KP moves:
//! a request and a reply over RabbitMQ (docs/game-contract, "Character check"). The game answers
//! on the portal's exchange with `character.answer.<its product>`, the one key its broker user
//! may publish answers with; each recharge instance reads every answer through a queue of its
//! own and takes one only on the key of the product it asked, with the question's correlation
//! id. (Not RabbitMQ's direct reply-to: answering there needs write on the default exchange,
//! which reaches every queue by name.) The query is transient,
//! published mandatory with publisher confirms (a product no game has bound comes back at once
//! instead of waiting out the deadline), and expires with the deadline so that a game which
//! was down does not answer questions nobody waits for any more.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use futures::StreamExt;
use kid_contracts::game::{self as contract, ALL_CHARACTER_ANSWERS, CharacterAnswer, CharacterQuery};
use kid_platform::{Settings, amqp, config::UnansweredCheck};
use lapin::{
    BasicProperties, Channel, Confirmation, Connection,
    options::{BasicPublishOptions, ConfirmSelectOptions},
};
use secrecy::{ExposeSecret, SecretString};
use tokio::sync::oneshot;
use uuid::Uuid;

/// What the game said about the player's character on a zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Character {
    /// Its name, as the game shows it.
    Found(String),
    /// The player has no character there.
    Missing,
    /// No answer within the deadline: no game bound, the broker away, or the game silent.
    Unanswered,
}

/// Why KP may not go to a zone: the check's verdict once the policy for an unanswered check
/// is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unconfirmed {
    /// The player has no character there.
    Missing,
    /// The game did not answer and the policy refuses.
    Unchecked,
}

/// The questions waiting, by correlation id: the routing key an answer must come on (the asked
/// product's), and who waits.
type Waiting = Arc<Mutex<HashMap<String, (String, oneshot::Sender<CharacterAnswer>)>>>;

/// A connection with its channel, the reply consumer on it, and the questions waiting for an
/// answer by correlation id.
struct Link {
    _connection: Connection,
    channel: Channel,
    waiting: Waiting,
}

/// A question waiting for its answer; forgotten when the asker stops waiting.
struct Pending {
    waiting: Waiting,
    id: String,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.remove(&self.id);
        }
    }
}

#[derive(Clone)]
pub struct Characters {
    url: SecretString,
    exchange: String,
    deadline: Duration,
    unanswered: UnansweredCheck,
    link: Arc<tokio::sync::Mutex<Option<Arc<Link>>>>,
}

impl Characters {
    pub fn new(settings: &Settings) -> Self {
        Self {
            url: settings.amqp.url.clone(),
            exchange: settings.amqp.exchange.clone(),
            deadline: settings.recharge.character_check_timeout,
            unanswered: settings.recharge.character_check_unanswered,
            link: Arc::default(),
        }
    }

    /// Asks the game of `product_code` about `username`'s character on `zone_id`, waiting at
    /// most the configured deadline.
    pub async fn check(&self, product_code: &str, zone_id: i64, username: &str) -> Character {
        let outcome = tokio::time::timeout(self.deadline, self.ask(product_code, zone_id, username)).await;
        let character = match outcome {
            Ok(Ok(answer)) if answer.found => {
                Character::Found(answer.name.unwrap_or_else(|| username.to_owned()))
            }
            Ok(Ok(_)) => Character::Missing,
            Ok(Err(error)) => {
                tracing::warn!(%error, product_code, "character check not answered");
                Character::Unanswered
            }
            Err(_) => {
                tracing::warn!(product_code, deadline = ?self.deadline, "character check: the game did not answer in time");
                Character::Unanswered
            }
        };
        let outcome = match character {
            Character::Found(_) => "found",
            Character::Missing => "missing",
            Character::Unanswered => "unanswered",
        };
        metrics::counter!("recharge_character_checks_total", "product" => product_code.to_owned(), "outcome" => outcome)
            .increment(1);
        character
    }

    /// Whether KP may go to `username`'s character on `zone_id`: the character's name, or
    /// `None` when the game did not answer and the policy allows going on (a refund covers a
    /// delivery the game then refuses).
    pub async fn confirm(
        &self,
        product_code: &str,
        zone_id: i64,
        username: &str,
    ) -> Result<Option<String>, Unconfirmed> {
        match self.check(product_code, zone_id, username).await {
            Character::Found(name) => Ok(Some(name)),
            Character::Missing => Err(Unconfirmed::Missing),
            Character::Unanswered if self.unanswered == UnansweredCheck::Refuse => {
                Err(Unconfirmed::Unchecked)
            }
            Character::Unanswered => {
                tracing::info!(
                    product_code,
                    zone_id,
                    "character check unanswered; going on (policy allow)"
                );
                Ok(None)
            }
        }
    }

    async fn ask(&self, product_code: &str, zone_id: i64, username: &str) -> anyhow::Result<CharacterAnswer> {
        let link = self.link().await?;
        let query = CharacterQuery {
            schema_version: contract::SCHEMA_VERSION,
            message_id: Uuid::now_v7(),
            username: username.to_owned(),
            product_code: product_code.to_owned(),
            zone_id,
        };
        let id = query.message_id.to_string();
        let (answered, answer) = oneshot::channel();
        link.waiting
            .lock()
            .map_err(|_| anyhow::anyhow!("the waiting list is poisoned"))?
            .insert(
                id.clone(),
                (contract::character_answer_routing_key(product_code), answered),
            );
        let _pending = Pending {
            waiting: link.waiting.clone(),
            id: id.clone(),
        };
        let properties = BasicProperties::default()
            .with_message_id(id.as_str().into())
            .with_correlation_id(id.as_str().into())
            .with_reply_to(
                contract::character_answer_routing_key(product_code)
                    .as_str()
                    .into(),
            )
            .with_content_type("application/json".into())
            .with_delivery_mode(1)
            .with_expiration(self.deadline.as_millis().to_string().as_str().into());
        let published = link
            .channel
            .basic_publish(
                self.exchange.as_str().into(),
                contract::character_routing_key(product_code).as_str().into(),
                BasicPublishOptions {
                    mandatory: true,
                    ..BasicPublishOptions::default()
                },
                &serde_json::to_vec(&query)?,
                properties,
            )
            .await;
        let confirmed = match published {
            Ok(confirm) => confirm.await,
            Err(error) => Err(error),
        };
        match confirmed {
            Ok(Confirmation::Ack(None)) => {}
            Ok(Confirmation::Ack(Some(_))) => {
                anyhow::bail!("no game takes character checks for {product_code}")
            }
            Ok(other) => anyhow::bail!("the broker did not take the character check: {other:?}"),
            Err(error) => {
                self.forget(&link).await;
                return Err(error.into());
            }
        }
        Ok(answer.await?)
    }

    /// The link, opened now when there is none or the last one was lost.
    async fn link(&self) -> anyhow::Result<Arc<Link>> {
        let mut current = self.link.lock().await;
        if let Some(link) = current.as_ref()
            && link.channel.status().connected()
        {
            return Ok(link.clone());
        }
        let connection = amqp::connect(self.url.expose_secret(), "kid-recharge-characters").await?;
        let channel = connection.create_channel().await?;
        channel.confirm_select(ConfirmSelectOptions::default()).await?;
        // This instance's own queue for every product's answers, gone with its connection.
        let queue = format!(
            "{}.recharge.character-answers.{}",
            self.exchange,
            Uuid::now_v7().simple()
        );
        let mut replies =
            amqp::consume_exclusive(&channel, &queue, &self.exchange, ALL_CHARACTER_ANSWERS, true).await?;
        let waiting = Waiting::default();
        let answers = waiting.clone();
        tokio::spawn(async move {
            while let Some(Ok(reply)) = replies.next().await {
                let Some(id) = reply.properties.correlation_id().as_ref() else {
                    tracing::warn!("character answer without a correlation id ignored");
                    continue;
                };
                let Ok(mut waiting) = answers.lock() else {
                    return;
                };
                // Only the asked product's game answers: its user alone may publish that key.
                let asked = waiting
                    .get(id.as_str())
                    .is_some_and(|(key, _)| key.as_str() == reply.routing_key.as_str());
                if !asked {
                    tracing::debug!(
                        routing_key = reply.routing_key.as_str(),
                        "character answer for no question of ours on its key ignored"
                    );
                    continue;
                }
                let Some((_, asker)) = waiting.remove(id.as_str()) else {
                    continue;
                };
                drop(waiting);
                match serde_json::from_slice::<CharacterAnswer>(&reply.data) {
                    Ok(answer) => {
                        let _ = asker.send(answer);
                    }
                    Err(error) => tracing::warn!(%error, "unreadable character answer ignored"),
                }
            }
        });
        let link = Arc::new(Link {
            _connection: connection,
            channel,
            waiting,
        });
        *current = Some(link.clone());
        Ok(link)
    }

    /// Drops `link` after a failure, so that the next question opens a new one.
    async fn forget(&self, link: &Arc<Link>) {
        let mut current = self.link.lock().await;
        if current.as_ref().is_some_and(|held| Arc::ptr_eq(held, link)) {
            *current = None;
        }
    }
}
