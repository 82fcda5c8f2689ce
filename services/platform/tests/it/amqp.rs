//! Connections to RabbitMQ ask for small frames, so that lapin's per-connection buffers (32
//! frames each way) stay small, and a message larger than a frame still arrives whole.

use kid_platform::amqp;
use lapin::{
    BasicProperties,
    options::{BasicGetOptions, BasicPublishOptions, QueueDeclareOptions},
    types::FieldTable,
};
use secrecy::ExposeSecret;

async fn broker_url() -> String {
    let settings = kid_testing::isolated_settings().await.expect("settings");
    settings.amqp.url.expose_secret().to_owned()
}

#[tokio::test]
async fn a_connection_asks_for_small_frames_unless_its_url_names_a_size() {
    let url = broker_url().await;
    let connection = amqp::connect(&url, "frame-size-default").await.expect("connect");
    assert_eq!(connection.configuration().frame_max(), amqp::FRAME_MAX);

    let separator = if url.contains('?') { '&' } else { '?' };
    let named = amqp::connect(&format!("{url}{separator}frame_max=65536"), "frame-size-named")
        .await
        .expect("connect");
    assert_eq!(named.configuration().frame_max(), 65_536);
}

#[tokio::test]
async fn a_message_larger_than_a_frame_arrives_whole() {
    let connection = amqp::connect(&broker_url().await, "frame-size-large")
        .await
        .expect("connect");
    let channel = connection.create_channel().await.expect("channel");
    let queue = channel
        .queue_declare(
            "".into(),
            QueueDeclareOptions {
                exclusive: true,
                auto_delete: true,
                ..QueueDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await
        .expect("queue");
    // Five and a half frames of bytes that differ from frame to frame.
    let body: Vec<u8> = (0..amqp::FRAME_MAX as usize * 11 / 2)
        .map(|i| (i % 251) as u8)
        .collect();
    channel
        .basic_publish(
            "".into(),
            queue.name().clone(),
            BasicPublishOptions::default(),
            &body,
            BasicProperties::default(),
        )
        .await
        .expect("publish")
        .await
        .expect("confirm");

    let mut received = None;
    for _ in 0..50 {
        received = channel
            .basic_get(queue.name().clone(), BasicGetOptions { no_ack: true })
            .await
            .expect("get");
        if received.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let message = received.expect("the message arrives");
    assert_eq!(message.delivery.data, body);
}
