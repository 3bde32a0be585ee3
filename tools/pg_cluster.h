#pragma once
// A throwaway PostgreSQL server for tools/bench_planning.cpp: the baseline
// its planning times are compared with (Debian's postgresql package, libpq).
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <libpq-fe.h>
#include <unistd.h>

namespace rfguard::bench {

/// A throwaway cluster on a Unix socket in a temporary directory, stopped and
/// removed on destruction. As root, the server runs as the `postgres` user.
class Cluster {
 public:
  ~Cluster() {
    if (conn_) PQfinish(conn_);
    if (started_) run("pg_ctl -D " + dir_ + "/data -w -m immediate stop >/dev/null 2>&1");
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  bool start(std::string& why) {
    bin_ = findBin();
    if (bin_.empty()) return why = "no initdb found (Debian: apt-get install postgresql)", false;
    char tmpl[] = "/tmp/rfguard-pg-XXXXXX";
    if (!mkdtemp(tmpl)) return why = "cannot create a temporary directory", false;
    dir_ = tmpl;
    if (geteuid() == 0) {
      if (std::system(("chown postgres " + dir_ + " 2>/dev/null").c_str()) != 0)
        return why = "running as root and there is no postgres user to run the server", false;
      asUser_ = "runuser -u postgres -- ";
    }
    if (!run("initdb -D " + dir_ + "/data -A trust -U postgres --no-sync >" + dir_ +
             "/initdb.log 2>&1"))
      return why = "initdb failed (" + dir_ + "/initdb.log)", false;
    started_ = run("pg_ctl -D " + dir_ + "/data -w -l " + dir_ + "/server.log -o \"-k " + dir_ +
                   " -c listen_addresses='' -F\" start >/dev/null 2>&1");
    if (!started_) return why = "the server did not start (" + dir_ + "/server.log)", false;
    conn_ = PQconnectdb(("host=" + dir_ + " dbname=postgres user=postgres").c_str());
    if (PQstatus(conn_) != CONNECTION_OK) return why = PQerrorMessage(conn_), false;
    return true;
  }

  bool exec(const std::string& sql, std::string& why, std::vector<std::string>* lines = nullptr) {
    PGresult* r = PQexec(conn_, sql.c_str());
    const auto st = PQresultStatus(r);
    const bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok) why = PQresultErrorMessage(r);
    if (ok && lines)
      for (int i = 0; i < PQntuples(r); ++i) lines->push_back(PQgetvalue(r, i, 0));
    PQclear(r);
    return ok;
  }

 private:
  static std::string findBin() {
    for (const auto& dir : {"/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin",
                            "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/14/bin"})
      if (std::filesystem::exists(std::string(dir) + "/initdb")) return dir;
    return "";
  }
  bool run(const std::string& cmd) {
    return std::system((asUser_ + bin_ + "/" + cmd).c_str()) == 0;
  }

  std::string bin_, dir_, asUser_;
  bool started_ = false;
  PGconn* conn_ = nullptr;
};

}  // namespace rfguard::bench
