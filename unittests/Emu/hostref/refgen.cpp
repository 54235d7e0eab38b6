//===- refgen.cpp - Writes the host reference cases (see HostRef.h) -------===//
//
//   refgen OUTDIR [CASE-SUBSTRING]
//
// OUTDIR/cases.tsv: name source kernel archs compare-spec... ; per case a
// directory with spec.json, arg<i>.in.bin and arg<i>.expect.bin.
//
//===----------------------------------------------------------------------===//
#include "HostRef.h"

#include <cstdio>
#include <fstream>
#include <sys/stat.h>

using namespace hostref;

static void writeFile(const std::string &P, const std::vector<uint8_t> &B) {
  std::ofstream OS(P, std::ios::binary);
  OS.write(reinterpret_cast<const char *>(B.data()), B.size());
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: refgen OUTDIR [FILTER]\n");
    return 2;
  }
  std::string Out = argv[1];
  std::string Filter = argc > 2 ? argv[2] : "";
  mkdir(Out.c_str(), 0755);
  std::ofstream TSV(Out + "/cases.tsv");
  for (auto &[Name, Fn] : Registry::all()) {
    if (!Filter.empty() && Name.find(Filter) == std::string::npos)
      continue;
    Case C;
    C.Name = Name;
    Fn(C);
    std::string Dir = Out + "/" + Name;
    mkdir(Dir.c_str(), 0755);
    std::ofstream Spec(Dir + "/spec.json");
    Spec << "{\"workgroups\":[" << C.Grid[0] << "," << C.Grid[1] << ","
         << C.Grid[2] << "],\"workgroup_size\":[" << C.Block[0] << ","
         << C.Block[1] << "," << C.Block[2] << "],\"dynamic_lds\":" << C.DynLds
         << ",\"args\":[";
    std::string Cmps;
    for (size_t I = 0; I < C.Args.size(); ++I) {
      ArgRec &A = C.Args[I];
      if (I)
        Spec << ",";
      if (!A.Buffer) {
        Spec << A.Json;
        continue;
      }
      std::string In = "arg" + std::to_string(I) + ".in.bin";
      writeFile(Dir + "/" + In, *A.Init);
      writeFile(Dir + "/arg" + std::to_string(I) + ".expect.bin", *A.Data);
      Spec << "{\"buffer\":\"" << In << "\"}";
      if (A.Compare)
        Cmps += "\t" + std::to_string(I) + ":" + A.C.Type + ":" +
                std::to_string(A.C.Ulps) + ":" + std::to_string(A.C.Abs);
    }
    Spec << "]}\n";
    std::string Archs;
    for (auto &X : C.Archs)
      Archs += (Archs.empty() ? "" : ",") + X;
    TSV << Name << "\t" << C.Source << "\t" << C.Kernel << "\t" << Archs
        << Cmps << "\n";
  }
  return 0;
}
