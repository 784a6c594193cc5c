# OrderService image: multi-stage (SDK builds, ASP.NET runtime runs), non-root, SQLite data on a volume.
#   docker build -t orderservice .
#   docker run -p 8080:8080 -v orderservice-data:/app/data orderservice          # SQLite (default)
#   docker run -p 8080:8080 -e Store__Provider=PostgreSql \
#     -e ConnectionStrings__Orders="Host=db;Username=postgres;Password=...;Database=orders" orderservice
# No syntax directive on purpose: under BuildKit it makes every build fetch the docker/dockerfile frontend from
# Docker Hub first, which fails offline or where Docker Hub is blocked; the built-in frontend covers all used here.

FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /source

# Restore from the project files alone, so a code change does not invalidate the package layer.
# global.json is left out on purpose: it pins the developer SDK; the image's own 10.0 SDK builds the same code.
COPY Directory.Build.props Directory.Packages.props .editorconfig ./
COPY src/OrderService/OrderService.csproj src/OrderService/
COPY src/OrderService.Data/OrderService.Data.csproj src/OrderService.Data/
COPY src/OrderService.Data.MongoDb/OrderService.Data.MongoDb.csproj src/OrderService.Data.MongoDb/
COPY src/OrderService.Data.PostgreSql/OrderService.Data.PostgreSql.csproj src/OrderService.Data.PostgreSql/
COPY src/OrderService.Data.SqlServer/OrderService.Data.SqlServer.csproj src/OrderService.Data.SqlServer/
COPY src/OrderService.Data.Sqlite/OrderService.Data.Sqlite.csproj src/OrderService.Data.Sqlite/
# ReadyToRun (precompiled code) needs a runtime identifier; pass --build-arg RID=linux-arm64 on ARM. The restore
# must know about ReadyToRun too: only then does it fetch the crossgen2 pack that the --no-restore publish
# compiles with (without it: NETSDK1094, "a valid runtime package was not found").
ARG RID=linux-x64
RUN dotnet restore src/OrderService/OrderService.csproj -r $RID -p:PublishReadyToRun=true

# The same project and options as the publish line of docs/operations.md#the-image (a test holds them equal);
# only the output folder and --no-restore (the layer above restored) are the image's own.
COPY src/ src/
RUN dotnet publish src/OrderService/OrderService.csproj -c Release -r $RID --self-contained false -p:PublishReadyToRun=true -p:UseAppHost=false \
      --no-restore -o /app/publish

# The regular (Ubuntu) runtime image carries ICU, which Microsoft.Data.SqlClient needs (no invariant globalization).
FROM mcr.microsoft.com/dotnet/aspnet:10.0 AS final
WORKDIR /app
COPY --from=build /app/publish .

# The default connection string is "Data Source=data/orders.db", relative to /app: the SQLite file lives
# on this volume, owned by the image's non-root user (APP_UID, 1654).
RUN mkdir -p /app/data && chown "$APP_UID:$APP_UID" /app/data
VOLUME ["/app/data"]

USER $APP_UID
ENV ASPNETCORE_HTTP_PORTS=8080
EXPOSE 8080
ENTRYPOINT ["dotnet", "OrderService.dll"]
