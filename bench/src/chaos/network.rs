//! A bad network between the gateway and the services. This machine's kernel has no `netem`
//! queueing discipline (`tc qdisc add … netem` answers "Specified qdisc kind is unknown"), so
//! the suite puts a relay of its own on each path instead: every byte the gateway sends a
//! service, and every byte back, waits `delay ± jitter`, and a chunk "lost" waits 200 ms more,
//! as TCP's retransmission after a lost segment (Linux's least RTO) makes it wait, with the
//! chunks behind it held up in order as TCP holds them. While unimpaired the relay only copies.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::mpsc,
    time::Instant,
};

/// What a retransmission costs a lost segment.
const RETRANSMISSION: Duration = Duration::from_millis(200);

/// The impairment every relay applies, switched by the scenario.
#[derive(Default)]
pub struct Impairment {
    delay_ms: AtomicU64,
    jitter_ms: AtomicU64,
    /// Chunks lost per 10,000.
    loss: AtomicU64,
}

impl Impairment {
    pub fn set(&self, delay: Duration, jitter: Duration, loss_percent: f64) {
        self.delay_ms.store(delay.as_millis() as u64, Ordering::SeqCst);
        self.jitter_ms.store(jitter.as_millis() as u64, Ordering::SeqCst);
        self.loss.store((loss_percent * 100.0) as u64, Ordering::SeqCst);
    }

    pub fn clear(&self) {
        self.set(Duration::ZERO, Duration::ZERO, 0.0);
    }

    /// How long a chunk read now waits before it is passed on.
    fn wait(&self) -> Duration {
        let delay = self.delay_ms.load(Ordering::Relaxed);
        let jitter = self.jitter_ms.load(Ordering::Relaxed);
        let loss = self.loss.load(Ordering::Relaxed);
        if delay == 0 && jitter == 0 && loss == 0 {
            return Duration::ZERO;
        }
        let mut millis = delay.saturating_sub(jitter) + rand::random_range(0..=jitter * 2);
        if rand::random_range(0..10_000) < loss {
            millis += RETRANSMISSION.as_millis() as u64;
        }
        Duration::from_millis(millis)
    }
}

/// Relays every connection `listener` accepts to `target` through `impairment`; returns the
/// listener's port.
pub fn relay(listener: TcpListener, target: SocketAddr, impairment: Arc<Impairment>) -> anyhow::Result<u16> {
    let port = listener.local_addr()?.port();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let impairment = impairment.clone();
            tokio::spawn(async move {
                let Ok(service) = TcpStream::connect(target).await else {
                    return;
                };
                let _ = client.set_nodelay(true);
                let _ = service.set_nodelay(true);
                let (client_read, client_write) = client.into_split();
                let (service_read, service_write) = service.into_split();
                tokio::join!(
                    pass(client_read, service_write, impairment.clone()),
                    pass(service_read, client_write, impairment),
                );
            });
        }
    });
    Ok(port)
}

/// Copies one direction, each chunk leaving no earlier than its wait after it arrived, in order.
async fn pass(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    impairment: Arc<Impairment>,
) {
    let (chunks, mut delayed) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let reading = async move {
        let mut buffer = vec![0u8; 16 * 1024];
        while let Ok(read) = from.read(&mut buffer).await {
            if read == 0
                || chunks
                    .send((Instant::now() + impairment.wait(), buffer[..read].to_vec()))
                    .is_err()
            {
                break;
            }
        }
    };
    let writing = async move {
        let mut not_before = Instant::now();
        while let Some((due, chunk)) = delayed.recv().await {
            // In order: a chunk never overtakes the one before it.
            not_before = not_before.max(due);
            tokio::time::sleep_until(not_before).await;
            if to.write_all(&chunk).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    };
    tokio::join!(reading, writing);
}
